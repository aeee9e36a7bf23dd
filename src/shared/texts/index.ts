// The one catalogue of user-visible texts (architecture rule 3). Each area keeps its strings in its
// own file; everything is imported from here.
export { authTexts } from './auth.js';
export { commonTexts } from './common.js';
export { autoChatTitle, chatViewTexts } from './chat.js';
export { chatTexts } from './chatMore.js';
export { landingTexts } from './landing.js';
export { legalTexts, type LegalDocument, type LegalSection } from './legal.js';
export { onboardingTexts } from './onboarding.js';
export { settingsTexts } from './settings.js';
export { coachTexts } from './coach.js';
export { knowledgeBaseTexts } from './knowledgeBase.js';
export { privacyTexts } from './privacy.js';
export { microsoftTexts } from './microsoft.js';
export { writingStyleTexts } from './writingStyle.js';
export { phoneTexts, voiceTexts } from './voice.js';
export { limitTexts } from './limits.js';
export { sessionTexts } from './sessions.js';
export { apiKeyTexts } from './apiKeys.js';
export { goalTexts } from './goals.js';
export { securityTexts } from './security.js';
export { commitmentQuestion, memoryTexts } from './memories.js';
export { meetingsTexts } from './meetings.js';
export { debriefTexts } from './debriefs.js';
export { rehearsalTexts } from './rehearsals.js';
export { rehearsalChatTexts, stepsOutOfRole } from './rehearsalChat.js';
export { phoneVerificationTexts } from './phoneVerification.js';
export { microsoftSignInTexts, type MicrosoftSignInErrorCode } from './microsoftSignIn.js';
export { nudgesTexts } from './nudges.js';
export { organisationTexts } from './organisations.js';
export { programTexts } from './programs.js';
export {
  authShellTexts,
  goalShellTexts,
  meetingsShellTexts,
  memoryShellTexts,
  microsoftShellTexts,
  microsoftSignInShellTexts,
  nudgesShellTexts,
  rehearsalShellTexts,
  voiceShellTexts,
} from './appShell.js';
export { safetyQuestion, safetyTexts, speakNumber, type SafetyResources } from './safety.js';
