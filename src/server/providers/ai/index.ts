import type { Config } from '../../config.js';
import { createOfflineCoach } from './offline/offlineCoach.js';
import { createOpenAiModel } from './openaiModel.js';
import type { CoachModel } from './contract.js';

export { createOpenAiModel } from './openaiModel.js';
export { ProviderError, type ChatTurn, type CoachModel, type CoachUser, type CoachRequest } from './contract.js';

/**
 * The coach the app runs with: the configured OpenAI-compatible model when an API key is set,
 * otherwise the built-in offline coach (so the app works with no configuration at all).
 */
export function createCoachModel(config: Pick<Config['openai'], 'apiKey' | 'baseUrl' | 'model'> & Partial<Pick<Config['openai'], 'regions'>>, options: { offlineDelayMs?: number } = {}): CoachModel {
  if (config.apiKey) {
    return createOpenAiModel({ apiKey: config.apiKey, baseUrl: config.baseUrl, model: config.model, regions: config.regions });
  }
  return createOfflineCoach({ delayMs: options.offlineDelayMs });
}
