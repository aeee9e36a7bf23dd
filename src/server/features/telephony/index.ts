// The telephony feature's public surface: what other features may use. A feature reaches another
// only through its index.ts (npm run depcheck, rule features-through-index).
export { ChatCallRefused, chatOfCallQuery, placeChatCall } from './chatCall.js';
export { telephonyProviderOf, telephonySettingsOf, webhookPaths } from './telephonyProvider.js';
