// The limits feature's public surface: what other features may use. A feature reaches another
// only through its index.ts (npm run depcheck, rule features-through-index).
export { isTrustedAddress, rateLimitAddressKey } from './addressKey.js';
export { consumeChatMessage } from './chatLimit.js';
export { accountBounds, graphNotificationLimit, RateLimitError, type RateLimits, voiceKeepValidSeconds, voiceSpeechAllowance } from './rateLimits.js';
