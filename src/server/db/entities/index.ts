import { ApiKey } from './ApiKey.js';
import { CheckIn, Goal, GoalReminder, KeyResult } from './Goal.js';
import { AuthSession } from './AuthSession.js';
import { Chat } from './Chat.js';
import { KnowledgeBase } from './KnowledgeBase.js';
import { Message } from './Message.js';
import { MicrosoftConnection } from './MicrosoftConnection.js';
import { User } from './User.js';
import { UserSettings } from './UserSettings.js';
import { WritingStyleProfile } from './WritingStyleProfile.js';

export { Chat, Message, User, UserSettings };
export { KnowledgeBase };
export { MicrosoftConnection };
export { WritingStyleProfile };
export { AuthSession };
export { ApiKey };
export { CheckIn, Goal, GoalReminder, KeyResult };
export const entities = [User, Chat, Message, UserSettings, KnowledgeBase, MicrosoftConnection, WritingStyleProfile, AuthSession, ApiKey, Goal, KeyResult, CheckIn, GoalReminder];
