// The model endpoint shares the chat's budget (RATE_LIMIT_CHAT_PER_MINUTE): one limit for every
// path that calls the model.
export { consumeChatMessage as consumeAiRequest } from '../limits/index.js';
