// The safety line (screen, answers, the user's country): see safetyLine.ts.
export { crisisCategories, isCrisis, screenMessage, screenedChars, type SafetyCategory } from './screen.js';
export { createSafetyLine, defaultSafetyLine, type AskModel, type SafeReply, type SafetyLine, type SafetyTurn } from './safetyLine.js';
export { countryOfPhone, countryOfTimeZone, loadUserCountry } from './country.js';
