import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { startWarnings } from './startWarnings.js';

describe('start warnings', () => {
  it('warns that demo mode still lets visitors in when password login is off, and says what it allows', () => {
    const [warning, ...rest] = startWarnings(loadConfig({ PASSWORD_LOGIN: 'false', DEMO_MODE: 'true' }));
    expect(rest).toEqual([]);
    expect(warning).toContain('PASSWORD_LOGIN=false, but DEMO_MODE is on');
    expect(warning).toContain('guest space');
    expect(warning).toContain('DEMO_MODE=false');
    expect(startWarnings(loadConfig({ PASSWORD_LOGIN: 'false', DEMO_MODE: 'false' }))).toEqual([]);
    expect(startWarnings(loadConfig({ PASSWORD_LOGIN: 'true', DEMO_MODE: 'true' }))).toEqual([]);
  });

  it('warns of demo mode on an address other machines reach', () => {
    expect(startWarnings(loadConfig({ HOST: '0.0.0.0' })).join('')).toContain('DEMO_MODE is on while HOST=0.0.0.0');
  });
});
