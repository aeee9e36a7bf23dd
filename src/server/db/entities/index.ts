import { User } from './User.js';

export { User };
export const entities = [User];
