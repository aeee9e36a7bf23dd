import type { EntityManager } from '@mikro-orm/core';
import { privacyDefaults } from '../../../shared/settingsConstants.js';
import { UserSettings } from '../../db/entities/UserSettings.js';

// The one rule for every way a chat starts (the chat list, a browser voice call, a phone call):
// while the user's storeChatHistory (Settings, Privacy) is off, a new chat is temporary. A
// temporary chat is deleted once the user leaves it (starting another chat, or the client's
// leave) or, left idle, by the retention job (dataRetention.ts).
export async function newChatIsTemporary(em: EntityManager, userId: number): Promise<boolean> {
  const settings = await em.findOne(UserSettings, { user: userId });
  return settings ? !settings.storeChatHistory : !privacyDefaults.storeChatHistory;
}
