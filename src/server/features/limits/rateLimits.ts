import { TRPCError } from '@trpc/server';
import pg from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { authTexts, chatTexts, coachTexts, limitTexts, phoneTexts, phoneVerificationTexts, voiceTexts } from '../../../shared/texts/index.js';
import type { Config } from '../../config.js';
import { rateLimitTable, type DatabaseTarget } from '../../db/orm.js';

// Every limit consumes a point before it decides (rate-limiter-flexible's consume is one atomic
// step), so requests in flight together, or batched into one call, count one by one. On
// PostgreSQL the counters live in the database (the library's own table, rate_limit), shared by
// every instance; on the embedded database, which has one server, they live in memory.

/** A refused request: 429, with the seconds to wait for the Retry-After header. */
export class RateLimitError extends TRPCError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super({ code: 'TOO_MANY_REQUESTS', message });
  }
}

export type Limit = {
  /** Counts one request for `key`; throws RateLimitError when past the limit. */
  consume(key: string): Promise<void>;
  /** Forgets `key`'s count (a successful login clears its username's failures). */
  reset(key: string): Promise<void>;
  /** Gives back the point a request consumed (a successful login is not a failure). */
  refund(key: string): Promise<void>;
};

/** A budget per UTC day: the window ends at the next UTC midnight. */
export type DailyLimit = {
  /**
   * Takes one of today's points for `key`; throws RateLimitError (Retry-After: the seconds to UTC
   * midnight) when none is left. Resolves to what gives the point back (once, to the same day).
   */
  take(key: string): Promise<() => Promise<void>>;
};

export type RateLimits = {
  loginPerUsername: Limit;
  loginPerAddress: Limit;
  register: Limit;
  /** Guest spaces made per address and hour (RATE_LIMIT_GUEST_PER_HOUR). */
  guests: Limit;
  chat: Limit;
  /** Paid audio (transcription and speech) per user and minute (RATE_LIMIT_VOICE_PER_MINUTE). */
  voice: Limit;
  /** Wrong phone PINs keyed in for one account, over every call (an hour). */
  phonePin: Limit;
  /** Accepted Graph change notifications per subscription and minute (each drops the user's calendar cache). */
  graphNotifications: Limit;
  /** Phone calls placed by the coach (POST /api/twilio/voice/call), goal check-in calls too. */
  calls: Limit;
  /** Nudges run now per user and hour (RATE_LIMIT_NUDGE_RUNS_PER_HOUR): each may mail, push and write a chat. */
  nudgeRuns: Limit;
  /** 'Try again from here' of rehearsals per user and hour: each copies the rehearsal's turns. */
  rehearsalRetries: Limit;
  /** Verification texts (SMS costs money, and could flood a stranger's phone): per user, per client address, per number. */
  verificationSmsPerUser: Limit;
  verificationSmsPerAddress: Limit;
  verificationSmsPerNumber: Limit;
  /** Model turns per user and UTC day (MODEL_DAILY_QUOTA): take one in features/ai/modelQuota.ts. */
  modelDaily: DailyLimit;
  /**
   * Model turns per client address (or unknown caller's number) and UTC day, over every account
   * (MODEL_DAILY_QUOTA_PER_ADDRESS): taken with modelDaily in features/ai/modelQuota.ts.
   */
  modelDailyPerAddress: DailyLimit;
  /** A voice reply's speech allowance: its sentences spoken (keyed by its nonce, while it is valid). */
  voiceSpeech: Limit;
  close(): Promise<void>;
};

const fifteenMinutes = 15 * 60;

const secondsToUtcMidnight = (now: number) => {
  const midnight = new Date(now);
  midnight.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((midnight.getTime() - now) / 1000));
};

/** Wrong phone PINs allowed for one account in an hour, whatever the number of calls. */
export const phonePinLimit = { tries: 10, windowSeconds: 3600 } as const;

/** Graph change notifications: items a request may hold, and notifications a subscription may deliver a minute. */
export const graphNotificationLimit = { itemsPerRequest: 100, perSubscriptionPerMinute: 60 } as const;

/** Rehearsal retries ('Try again from here') one user may make in an hour. */
export const rehearsalRetryLimit = { retries: 30, windowSeconds: 3600 } as const;

/** What an account may hold: chats of every kind (rehearsals, prep and nudge chats too) and rehearsals. */
export const accountBounds = { maxChats: 5000, maxRehearsals: 500 } as const;

/** Calls the coach may place for one user in ten minutes. */
export const phoneCallLimit = { calls: 5, windowSeconds: 600 } as const;

/** How long a provisional voice turn's keep token is valid (features/voice/voiceTurn.ts). */
export const voiceKeepValidSeconds = 600;

/**
 * A voice turn's reply is spoken sentence by sentence, each a speech request: this many of them
 * are covered by the turn's own daily model turn (features/voice/voiceBudget.ts), within this time.
 */
export const voiceSpeechAllowance = { requests: 12, validSeconds: 600 } as const;

/** Verification texts a user, a client address (/64 for IPv6) and a destination number may be sent in an hour. */
export const verificationSmsLimit = { perUser: 5, perAddress: 10, perNumber: 5, windowSeconds: 3600 } as const;

export async function createRateLimits(config: Config, target: DatabaseTarget): Promise<RateLimits> {
  const pool = target.kind === 'postgresql' ? new pg.Pool({ connectionString: target.url, max: 4 }) : undefined;
  pool?.on('error', () => {}); // an idle client's error; the next query reconnects

  // The library makes its table (CREATE TABLE IF NOT EXISTS) when a limiter is made: here once a
  // start, by the first limiter; the others are told it is there. PostgreSQL's IF NOT EXISTS is
  // not safe against a concurrent CREATE: instances started together on an empty database raced,
  // and the loser failed to start with 'type "rate_limit" already exists' (42710; the library
  // itself forgives only the other form of the race, a unique violation, 23505). The loser finds
  // the table made by the winner.
  let tableReady = false;
  const madeConcurrently = (error: unknown) => ['42710', '42P07'].includes((error as { code?: string }).code ?? ''); // duplicate object, table

  function postgresLimiter(store: pg.Pool, keyPrefix: string, points: number, duration: number, tableCreated: boolean): Promise<RateLimiterPostgres> {
    const options = { storeClient: store, storeType: 'pool', tableName: rateLimitTable, keyPrefix, points, duration, tableCreated };
    // Told the table is there, the library calls back from inside its constructor: nothing to wait for.
    if (tableCreated) return Promise.resolve(new RateLimiterPostgres(options));
    return new Promise((resolve, reject) => {
      const created: RateLimiterPostgres = new RateLimiterPostgres(options, (error?: unknown) => (error ? reject(error) : resolve(created)));
    });
  }

  async function limiter(keyPrefix: string, points: number, duration: number): Promise<RateLimiterAbstract> {
    if (!pool) return new RateLimiterMemory({ keyPrefix, points, duration });
    if (tableReady) return postgresLimiter(pool, keyPrefix, points, duration, true);
    try {
      const first = await postgresLimiter(pool, keyPrefix, points, duration, false);
      tableReady = true;
      return first;
    } catch (error) {
      if (!madeConcurrently(error)) throw error;
      tableReady = true;
      return postgresLimiter(pool, keyPrefix, points, duration, true);
    }
  }

  async function limit(keyPrefix: string, points: number, duration: number, message: (seconds: number) => string): Promise<Limit> {
    if (points <= 0) return { consume: async () => {}, reset: async () => {}, refund: async () => {} }; // 0 turns it off
    const rl = await limiter(keyPrefix, points, duration);
    return {
      async consume(key) {
        try {
          await rl.consume(key);
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
          throw new RateLimitError(message(seconds), seconds);
        }
      },
      async reset(key) {
        await rl.delete(key);
      },
      async refund(key) {
        await rl.reward(key, 1);
      },
    };
  }

  // The day is part of the key, so every instance starts the new day at the same moment, and a
  // count expires at its day's end. A refund names the day it was taken on: after midnight it
  // touches only the day that is over.
  async function dailyLimit(keyPrefix: string, points: number, message: () => string): Promise<DailyLimit> {
    if (points <= 0) return { take: async () => async () => {} }; // 0 turns it off
    const rl = await limiter(keyPrefix, points, 26 * 3600);
    return {
      async take(key) {
        const now = Date.now();
        const dayKey = `${key}:${new Date(now).toISOString().slice(0, 10)}`;
        try {
          await rl.consume(dayKey, 1, { customDuration: secondsToUtcMidnight(now) });
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          // A refused turn is not one taken: its point goes back, so a later refund frees a turn.
          await rl.reward(dayKey, 1).catch(() => {});
          throw new RateLimitError(message(), secondsToUtcMidnight(Date.now()));
        }
        let given = false;
        return async () => {
          if (given) return;
          given = true;
          await rl.reward(dayKey, 1);
        };
      },
    };
  }

  const { rateLimits } = config;
  const inMinutes = (text: (minutes: number) => string) => (seconds: number) => text(Math.ceil(seconds / 60));
  return {
    loginPerUsername: await limit('login_user', rateLimits.loginPerUsername, fifteenMinutes, inMinutes(authTexts.tooManyAttempts)),
    loginPerAddress: await limit('login_addr', rateLimits.loginPerAddress, fifteenMinutes, inMinutes(authTexts.tooManyAttempts)),
    register: await limit('register', rateLimits.registerPerHour, 3600, inMinutes(limitTexts.tooManyRegistrations)),
    guests: await limit('guests', rateLimits.guestPerHour, 3600, inMinutes(limitTexts.tooManyGuests)),
    chat: await limit('chat', rateLimits.chatPerMinute, 60, coachTexts.rateLimited),
    voice: await limit('voice', rateLimits.voicePerMinute, 60, voiceTexts.rateLimited),
    phonePin: await limit('phone_pin', phonePinLimit.tries, phonePinLimit.windowSeconds, () => phoneTexts.pinLocked),
    graphNotifications: await limit('graph_notify', graphNotificationLimit.perSubscriptionPerMinute, 60, () => 'Too many change notifications for this subscription'),
    calls: await limit('calls', phoneCallLimit.calls, phoneCallLimit.windowSeconds, phoneTexts.rateLimited),
    rehearsalRetries: await limit('rehearsal_retries', rehearsalRetryLimit.retries, rehearsalRetryLimit.windowSeconds, inMinutes(limitTexts.tooManyRehearsalRetries)),
    nudgeRuns: await limit('nudge_runs', rateLimits.nudgeRunsPerHour, 3600, inMinutes((minutes) => limitTexts.tooManyNudgeRuns(rateLimits.nudgeRunsPerHour, minutes))),
    verificationSmsPerUser: await limit('sms_user', verificationSmsLimit.perUser, verificationSmsLimit.windowSeconds, inMinutes(phoneVerificationTexts.tooManyCodes)),
    verificationSmsPerAddress: await limit('sms_addr', verificationSmsLimit.perAddress, verificationSmsLimit.windowSeconds, inMinutes(phoneVerificationTexts.tooManyCodes)),
    verificationSmsPerNumber: await limit('sms_number', verificationSmsLimit.perNumber, verificationSmsLimit.windowSeconds, inMinutes(phoneVerificationTexts.tooManyCodes)),
    modelDaily: await dailyLimit('model_day', config.modelDailyQuota, () => chatTexts.dailyQuotaSpent(config.modelDailyQuota)),
    modelDailyPerAddress: await dailyLimit('model_day_addr', config.modelDailyQuotaPerAddress, () => limitTexts.addressQuotaSpent(config.modelDailyQuotaPerAddress)),
    voiceSpeech: await limit('voice_speech', voiceSpeechAllowance.requests, voiceSpeechAllowance.validSeconds, voiceTexts.rateLimited),
    close: async () => {
      await pool?.end();
    },
  };
}
