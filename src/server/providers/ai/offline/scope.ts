import type { CoachUser } from '../contract.js';
import { firstNameOf } from './language.js';
import type { CoachScope } from './types.js';

export function scopeFor(user: CoachUser | undefined | null): CoachScope {
  return { user: user ?? null, firstName: firstNameOf(user?.fullName) };
}

/** ", Jane" after a phrase, or nothing when the name is unknown. */
export function byName(scope: CoachScope): string {
  return scope.firstName ? `, ${scope.firstName}` : '';
}

/** "Product Manager at Acme", "Product Manager", "Acme's team" style descriptions, or null. */
export function roleAndCompany(scope: CoachScope): string | null {
  const job = scope.user?.jobTitle?.trim();
  const company = scope.user?.company?.trim();
  if (job && company) return `${job} at ${company}`;
  return job || company || null;
}

/** "your role as Product Manager at Acme" / "your work at Acme" / "your role". */
export function yourRole(scope: CoachScope): string {
  const job = scope.user?.jobTitle?.trim();
  const company = scope.user?.company?.trim();
  if (job && company) return `your role as ${job} at ${company}`;
  if (job) return `your role as ${job}`;
  if (company) return `your work at ${company}`;
  return 'your role';
}
