import { describe, expect, it } from 'vitest';
import { authTexts } from '../../../shared/texts/index.js';
import { demoPasswordHash } from './demoAccount.js';
import { needsRehash, productionScryptCost, verifyPassword } from './password.js';

describe('the demo account password hash kept in the code', () => {
  it('is the demo password shown on /login, hashed with the parameters in use today', async () => {
    expect(await verifyPassword(authTexts.demoCredentials.password, demoPasswordHash)).toBe(true);
    expect(await verifyPassword(`${authTexts.demoCredentials.password}x`, demoPasswordHash)).toBe(false);
    expect(needsRehash(demoPasswordHash)).toBe(false);
    const { N, r, p } = productionScryptCost;
    expect(demoPasswordHash.startsWith(`scrypt$${N}$${r}$${p}$`)).toBe(true);
  });
});
