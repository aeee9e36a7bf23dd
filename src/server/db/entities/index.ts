import { Chat } from './Chat.js';
import { Message } from './Message.js';
import { User } from './User.js';

export { Chat, Message, User };
export const entities = [User, Chat, Message];
