import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

// Failed logins are counted per username and per client address; past the limit the login is
// refused with 429 until the window has passed. A successful login clears the username's count.
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

export function createLoginThrottle(options = { perUsername: 5, perAddress: 20, windowSeconds: 15 * 60 }) {
  const byUsername = new RateLimiterMemory({ points: options.perUsername, duration: options.windowSeconds });
  const byAddress = new RateLimiterMemory({ points: options.perAddress, duration: options.windowSeconds });

  return {
    /** Seconds to wait when blocked, or 0 when the login may be tried. */
    async retryAfterSeconds(usernameKey: string, address: string): Promise<number> {
      const [user, addr] = await Promise.all([byUsername.get(usernameKey), byAddress.get(address)]);
      const blocked = [
        user && user.consumedPoints >= options.perUsername ? user : null,
        addr && addr.consumedPoints >= options.perAddress ? addr : null,
      ].filter((r): r is RateLimiterRes => r !== null);
      return blocked.length ? Math.ceil(Math.max(...blocked.map((r) => r.msBeforeNext)) / 1000) : 0;
    },
    async recordFailure(usernameKey: string, address: string): Promise<void> {
      await Promise.all([
        byUsername.penalty(usernameKey, 1),
        byAddress.penalty(address, 1),
      ]);
    },
    async recordSuccess(usernameKey: string): Promise<void> {
      await byUsername.delete(usernameKey);
    },
  };
}
