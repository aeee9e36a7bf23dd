import { describe, expect, it } from 'vitest';
import { rateLimitAddressKey } from './addressKey.js';

describe('rateLimitAddressKey', () => {
  it('counts every address of one IPv6 /64 as one client', () => {
    const a = rateLimitAddressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(rateLimitAddressKey('2001:db8:1:2::1')).toBe(a);
    expect(rateLimitAddressKey('2001:0db8:0001:0002:ffff:0:0:1')).toBe(a);
    expect(a).toBe('2001:db8:1:2::/64');
  });

  it('tells different /64s apart', () => {
    expect(rateLimitAddressKey('2001:db8:1:3::1')).not.toBe(rateLimitAddressKey('2001:db8:1:2::1'));
    expect(rateLimitAddressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('keeps IPv4 addresses whole, also when written IPv4-mapped', () => {
    expect(rateLimitAddressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(rateLimitAddressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(rateLimitAddressKey('192.0.2.2')).not.toBe('192.0.2.1');
  });

  it('ignores a zone id and passes other text through', () => {
    expect(rateLimitAddressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(rateLimitAddressKey('unknown')).toBe('unknown');
  });
});
