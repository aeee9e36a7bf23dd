import type { User } from '../../db/entities/User.js';

// Who administers the organisation: a member an admin named (orgRole 'admin'), or one the operator
// names in ORG_ADMINS by username, email, Entra object id or the provisioned userName (compared
// without regard to case). Never a guest space or the demo account.
export function isOrgAdmin(user: Pick<User, 'orgRole' | 'isGuest' | 'isDemo' | 'active' | 'username' | 'email' | 'entraObjectId' | 'entraUsername' | 'scimUserName'>, operatorAdmins: readonly string[]): boolean {
  if (user.isGuest || user.isDemo || !user.active) return false;
  if (user.orgRole === 'admin') return true;
  return namedByOperator(user, operatorAdmins);
}

export function namedByOperator(user: Pick<User, 'username' | 'email' | 'entraObjectId' | 'entraUsername' | 'scimUserName'>, operatorAdmins: readonly string[]): boolean {
  if (!operatorAdmins.length) return false;
  const names = [user.username, user.email, user.entraObjectId, user.entraUsername, user.scimUserName];
  return names.some((name) => typeof name === 'string' && name !== '' && operatorAdmins.includes(name.toLowerCase()));
}
