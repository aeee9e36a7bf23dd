import type { User } from '../../db/entities/User.js';
import type { CoachUser } from '../../providers/ai/contract.js';

/** What the coach may know of a signed-in user. */
export function coachUserOf(user: Pick<User, 'fullName' | 'jobTitle' | 'company'>): CoachUser {
  return { fullName: user.fullName, jobTitle: user.jobTitle ?? null, company: user.company ?? null };
}
