import { Chat } from './Chat.js';
import { Message } from './Message.js';
import { User } from './User.js';
import { UserSettings } from './UserSettings.js';

export { Chat, Message, User, UserSettings };
export const entities = [User, Chat, Message, UserSettings];
