import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { PhoneCall } from '../../db/entities/PhoneCall.js';
import { goalTexts } from '../../../shared/texts/index.js';
import { CheckIn, GoalReminder, KeyResult } from '../../db/entities/Goal.js';
import type { AppDeps } from '../../deps.js';
import { organisationPolicyOf } from '../../db/organisationPolicy.js';
import { newVoiceResponse } from '../../providers/telephony/twilioCalls.js';
import { telephonyProviderOf, telephonySettingsOf, webhookPaths } from '../telephony/index.js';
import { verifiedPhoneOf } from '../phone/index.js';
import { firstNameOf } from '../../providers/ai/offline/language.js';
import { RateLimitError } from '../limits/index.js';
import type { ClaimedReminder } from './goalReminders.js';

// The reminder as a call (cadence weekly_call): the coach calls the user's profile phone,
// asks where each key result stands, and logs each number said as a check-in. The reminder's id
// and the step ride in the (Twilio-signed) webhook URLs, so no call state is kept on the server.

type Ctx = { deps: Pick<AppDeps, 'config' | 'log' | 'orm' | 'rateLimits' | 'sessionPassword'>; em: EntityManager; publicUrl: string };
type Params = Record<string, string>;

/** Places the calls of the claimed reminders whose goals asked for one; the others stay in-app only. */
export async function callGoalReminders(deps: Pick<AppDeps, 'config' | 'orm' | 'log' | 'rateLimits' | 'providers'>, claimed: ClaimedReminder[]): Promise<number> {
  const settings = telephonySettingsOf(deps);
  const calls = claimed.filter((r) => r.cadence === 'weekly_call');
  if (!settings || calls.length === 0) return 0;
  const em = deps.orm.em.fork();
  let placed = 0;
  for (const reminder of calls) {
    // Not while the owner's organisation has phone calls with the coach off (the reminder stays in the app).
    if (!(await organisationPolicyOf(em, reminder.ownerId)).phoneCalls) continue;
    // Only a number its owner proved by SMS code; an unverified one is never called.
    const phone = await verifiedPhoneOf(em, reminder.ownerId);
    if (!phone || !settings.allowedCountryPrefixes.some((prefix) => phone.startsWith(prefix))) continue;
    // Each call rings a real phone and costs money: it takes a point of the user's calls limit
    // like every other call (an account may hold 200 goals, each with a weekly call).
    try {
      await deps.rateLimits.calls.consume(`user:${reminder.ownerId}`);
    } catch (error) {
      if (!(error instanceof RateLimitError)) throw error;
      deps.log.warn({ reminder: reminder.id }, 'the goal check-in call was not placed: the calls limit is spent');
      continue;
    }
    try {
      await telephonyProviderOf(deps).placeCall({
        to: phone,
        url: `${settings.publicUrl}${webhookPaths.goalCheckIn}?reminder=${reminder.id}`,
        statusCallback: `${settings.publicUrl}${webhookPaths.status}`,
      });
      placed++;
    } catch (error) {
      deps.log.warn({ err: error, reminder: reminder.id }, 'the goal check-in call could not be placed');
    }
  }
  return placed;
}

/** Each step asks for one key result; an answer (`said=1`) is logged and the next one asked. */
export async function goalCheckInCall(ctx: Ctx, query: Params, params: Params): Promise<string> {
  const response = newVoiceResponse();
  const reminder = await ctx.em.findOne(GoalReminder, { id: Number(query.reminder) || 0 }, { populate: ['goal', 'owner'] });
  if (!reminder) {
    response.hangup();
    return response.toString();
  }
  const keyResults = await ctx.em.find(KeyResult, { goal: reminder.goal.id }, { orderBy: { position: 'asc', id: 'asc' } });
  let step = Math.max(0, Number(query.step) || 0);
  if (query.said === '1') {
    const kr = keyResults[step];
    // Bound to the call's state (CallSid and step): a replayed answer logs nothing again.
    const call = await callStateOf(ctx.em, params.CallSid, reminder.owner.id);
    if (!call || step < call.turns) {
      step++;
      const next = keyResults[step];
      if (next) ask(response, ctx, reminder.id, step, next);
      else if (keyResults.length) response.say(goalTexts.callDone);
      response.hangup();
      return response.toString();
    }
    const value = spokenNumber(params.SpeechResult ?? '');
    if (kr && value === null) {
      response.say(goalTexts.callNoNumber);
      ask(response, ctx, reminder.id, step, kr);
      return response.toString();
    }
    if (kr && value !== null) {
      ctx.em.create(CheckIn, { keyResult: kr, value, note: goalTexts.loggedByPhone });
      call.turns = step + 1;
      reminder.goal.coachAskedAt = null;
      reminder.seenAt ??= new Date();
      await ctx.em.flush();
      response.say(goalTexts.callLogged(value));
    }
    step++;
  } else {
    response.say(goalTexts.callGreeting(firstNameOf(reminder.owner.fullName), reminder.goal.title));
    if (keyResults.length === 0) response.say(goalTexts.callNothingToAsk);
  }
  const next = keyResults[step];
  if (next) ask(response, ctx, reminder.id, step, next);
  else if (keyResults.length) response.say(goalTexts.callDone);
  response.hangup();
  return response.toString();
}

/** The goal call's state by its CallSid (made by its first answer), or null without a CallSid. */
async function callStateOf(em: EntityManager, callSid: string | undefined, ownerId: number): Promise<PhoneCall | null> {
  if (!callSid || !/^CA[0-9a-fA-F]{32}$/.test(callSid)) return null;
  const existing = await em.findOne(PhoneCall, { callSid });
  if (existing) return existing.owner?.id === ownerId ? existing : null;
  try {
    await em.fork().insert(PhoneCall, { callSid, owner: ownerId, direction: 'outbound', turns: 0, pinAttempts: 0, createdAt: new Date() });
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
  }
  return em.findOne(PhoneCall, { callSid });
}

function ask(response: ReturnType<typeof newVoiceResponse>, ctx: Ctx, reminderId: number, step: number, kr: KeyResult) {
  const action = `${ctx.publicUrl}${webhookPaths.goalCheckIn}?${new URLSearchParams({ reminder: String(reminderId), step: String(step), said: '1' })}`;
  response.gather({ input: ['speech'], action, method: 'POST', speechTimeout: 'auto', language: 'en-US' }).say(goalTexts.callAsk(kr.title, kr.unit));
}

const smallNumbers: readonly string[] = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const tens: readonly string[] = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** The number in what was said: '3.5', 'about 4', 'forty two', 'three point five', 'a hundred and twenty'. */
export function spokenNumber(said: string): number | null {
  const digits = /-?\d+(?:[.,]\d+)?/.exec(said.replace(/(\d),(\d{3})\b/g, '$1$2'));
  if (digits) return Number(digits[0].replace(',', '.'));
  const words: string[] = said.toLowerCase().replace(/-/g, ' ').match(/[a-z]+/g) ?? [];
  let total: number | null = null;
  let current = 0;
  let decimals: string | null = null;
  for (const word of words) {
    const small = smallNumbers.indexOf(word);
    const ten = tens.indexOf(word);
    if (decimals !== null) {
      if (small >= 0 && small < 10) decimals += String(small);
      else break;
      continue;
    }
    if (small >= 0) current += small;
    else if (ten >= 2) current += ten * 10;
    else if (word === 'hundred') current = (current || 1) * 100;
    else if (word === 'thousand') current = (current || 1) * 1000;
    else if (word === 'point' && (total !== null || current > 0 || words.includes('zero'))) decimals = '';
    else if (word === 'a' || word === 'and') continue;
    else if (total !== null || current > 0) break;
    else continue;
    total = current;
  }
  if (total === null) return null;
  return decimals ? Number(`${total}.${decimals}`) : total;
}
