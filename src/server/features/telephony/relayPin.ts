import type { EntityManager } from '@mikro-orm/core';
import { organisationTexts, phoneTexts } from '../../../shared/texts/index.js';
import { organisationPolicyOf } from '../../db/organisationPolicy.js';
import type { PhoneCall } from '../../db/entities/PhoneCall.js';
import { User } from '../../db/entities/User.js';
import { UserSettings } from '../../db/entities/UserSettings.js';
import type { AppDeps } from '../../deps.js';
import { firstNameOf } from '../../providers/ai/offline/language.js';
import { RateLimitError } from '../limits/index.js';
import { phonePinMatches } from '../phone/index.js';

// The phone PIN keyed in over the relay (DTMF), one call at a time: four digits make a try; the
// right PIN of the verified number's account makes the call that account's, a wrong one is said
// so, and after three wrong tries on a call (or once the account's budget of wrong PINs is spent)
// the PIN is no longer asked for. What the caller hears never tells whether the number is
// verified or has a PIN.

/** Wrong PINs a call may key in before the PIN is no longer asked for. */
export const pinTriesPerCall = 3;

/** The call's row and its identified caller (null while the call is anonymous). */
export type RelayCallLoader = (em: EntityManager) => Promise<{ call: PhoneCall; owner: User | null }>;

/** The PIN entry of one relayed call. */
export class RelayPin {
  private digits = '';
  /** Set once the right PIN named an account whose organisation has phone calls off: the call is told so and ends. */
  callEnds = false;

  constructor(
    private readonly deps: Pick<AppDeps, 'orm' | 'rateLimits'>,
    private readonly loadCall: RelayCallLoader,
  ) {}

  /**
   * One key the caller pressed. What to say back once a try of four digits is in (accepted, wrong
   * or locked); null while digits are still coming, for a key that is not a digit (it starts the
   * PIN again), and on a call that is identified already or asks for no PIN any more.
   */
  async keyIn(digit: string): Promise<string | null> {
    if (!/^[0-9]$/.test(digit)) {
      this.digits = '';
      return null;
    }
    const em = this.deps.orm.em.fork();
    const { call, owner } = await this.loadCall(em);
    if (owner || call.pinAttempts >= pinTriesPerCall) return null;
    this.digits += digit;
    if (this.digits.length < 4) return null;
    const pin = this.digits;
    this.digits = '';
    // A number without a PIN is answered as one with a wrong PIN, after the same work: what the
    // caller hears does not tell whether the number is verified or has a PIN.
    const pinUserId = call.pinUser?.id ?? null;
    let matches = false;
    let locked = false;
    if (pinUserId === null) {
      await phonePinMatches(pin, null);
    } else {
      // The account's budget of wrong PINs is taken BEFORE any comparison, one point per try, in one
      // atomic step: once it is spent no PIN is compared at all (the right one included) until it
      // refills, and calls in parallel cannot each get a comparison of their own. The right PIN
      // gives its point back.
      const key = `user:${pinUserId}`;
      try {
        await this.deps.rateLimits.phonePin.consume(key);
      } catch (error) {
        if (!(error instanceof RateLimitError)) throw error;
        locked = true;
      }
      if (!locked) {
        const settings = await em.findOne(UserSettings, { user: pinUserId });
        matches = await phonePinMatches(pin, settings?.phonePinHash ?? null);
        if (matches) await this.deps.rateLimits.phonePin.refund(key);
      }
    }
    if (matches && pinUserId !== null && !(await organisationPolicyOf(em, pinUserId)).phoneCalls) {
      // The account's organisation turned phone calls with the coach off: the call stays nobody's and ends.
      call.pinUser = null;
      call.pinAttempts = pinTriesPerCall;
      await em.flush();
      this.callEnds = true;
      return organisationTexts.member.callsTurnedOffSpoken;
    }
    if (matches && pinUserId !== null) {
      const user = await em.findOneOrFail(User, pinUserId);
      call.owner = user;
      call.pinUser = null;
      await em.flush();
      return phoneTexts.pinAccepted(firstNameOf(user.fullName) ?? 'there');
    }
    call.pinAttempts += 1;
    if (locked || call.pinAttempts >= pinTriesPerCall) {
      call.pinAttempts = Math.max(call.pinAttempts, pinTriesPerCall);
      call.pinUser = null;
      locked = true;
    }
    await em.flush();
    return locked ? phoneTexts.pinLocked : phoneTexts.pinWrong;
  }
}
