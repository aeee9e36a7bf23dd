import type { IncomingMessage } from 'node:http';
import type { EntityManager } from '@mikro-orm/core';
import type { WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import { phoneTexts } from '../../../shared/texts/index.js';
import { Chat } from '../../db/entities/Chat.js';
import { PhoneCall } from '../../db/entities/PhoneCall.js';
import { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { RateLimitError } from '../limits/index.js';
import { isCrisis, screenMessage } from '../coach/index.js';
import { runSpokenTurn, takeTurnBudget, recordHeard, type Speaker } from '../voice/index.js';
import { signedRelayHandshakeCall } from './relayGrant.js';
import { RelayPin } from './relayPin.js';

// Twilio ConversationRelay: Twilio turns the caller's speech into `prompt` messages and
// speaks the `text` tokens sent back. Each final prompt is one turn of the spoken-turn engine, its
// tokens sent as the model writes them; `interrupt` aborts the model at once and stores what the
// caller heard; `dtmf` keys in the phone PIN (relayPin.ts). The socket is bound to the call's state (phone_call)
// by its setup message: one relay per call, for a call our webhook answered.

/** Turns a call may take before the coach says goodbye. */
const maxTurns = 20;
/** A relay must start within this of the call being answered. */
const setupWindowMs = 10 * 60_000;
const goodbyeWords = /\b(?:bye|goodbye|good bye|hang up|that's all|that is all|nothing else|no thanks)\b/i;

const setupSchema = z.object({
  type: z.literal('setup'),
  callSid: z.string().regex(/^CA[0-9a-fA-F]{32}$/),
  from: z.string().max(64).optional(),
  customParameters: z.record(z.string(), z.string()).optional(),
});
const promptSchema = z.object({ type: z.literal('prompt'), voicePrompt: z.string().max(4000), last: z.boolean().optional() });
const interruptSchema = z.object({ type: z.literal('interrupt'), utteranceUntilInterrupt: z.string().max(8000).optional() });
const dtmfSchema = z.object({ type: z.literal('dtmf'), digit: z.string().max(2) });
const errorSchema = z.object({ type: z.literal('error'), description: z.string().max(2000).optional() });

type Running = { controller: AbortController; heard: string | null; done: Promise<void> };

export function attachConversationRelay(deps: AppDeps, wss: WebSocketServer): void {
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const session = new RelaySession(deps, ws, signedRelayHandshakeCall(deps, req));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return void ws.close(1003, 'Text messages only');
      session.receive(data.toString()).catch((error: unknown) => {
        deps.log.error({ err: error }, 'conversation relay failed');
        ws.close(1011, 'The coach failed');
      });
    });
    ws.on('close', () => session.hangUp());
  });
}

class RelaySession {
  private callId: number | null = null;
  private callerNumber = 'unknown';
  private setupDone: Promise<void> | null = null;
  private running: Running | null = null;
  private lastReply: { messageId: number; userId: number } | null = null;
  private readonly pin: RelayPin;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: AppDeps,
    private readonly ws: WebSocket,
    /** The call the handshake's signed URL was made for: the setup must name it. */
    private readonly boundCallId: number | null,
  ) {
    this.pin = new RelayPin(deps, (em) => this.loadCall(em));
  }

  async receive(raw: string): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    const type = (message as { type?: unknown }).type;
    if (type === 'setup') {
      if (this.setupDone) return;
      this.setupDone = this.setup(message);
      return this.setupDone;
    }
    // Nothing before a valid setup: the socket is not a call yet.
    if (!this.setupDone) return void this.ws.close(1008, 'Setup first');
    await this.setupDone;
    if (this.callId === null) return;
    if (type === 'interrupt') return this.interrupt(interruptSchema.safeParse(message).data?.utteranceUntilInterrupt ?? null);
    // Turns and digits run one after another; an interrupt is handled at once (above).
    if (type === 'prompt') {
      const prompt = promptSchema.safeParse(message).data;
      if (!prompt || prompt.last === false || !prompt.voicePrompt.trim()) return;
      // A new final prompt while the coach still writes: the caller spoke over it.
      this.interrupt(null);
      return this.enqueue(() => this.turn(prompt.voicePrompt.trim().slice(0, 2000)));
    }
    if (type === 'dtmf') {
      const dtmf = dtmfSchema.safeParse(message).data;
      if (dtmf) return this.enqueue(() => this.digit(dtmf.digit));
      return;
    }
    if (type === 'error') this.deps.log.warn({ description: errorSchema.safeParse(message).data?.description }, 'conversation relay reported an error');
  }

  hangUp() {
    this.running?.controller.abort();
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => {});
    return next;
  }

  private async setup(message: unknown): Promise<void> {
    const setup = setupSchema.safeParse(message).data;
    if (!setup) return void this.ws.close(1008, 'Bad setup');
    const em = this.deps.orm.em.fork();
    const call = await em.findOne(PhoneCall, { callSid: setup.callSid });
    const claimedId = setup.customParameters?.callId;
    const fresh = call && Date.now() - call.createdAt.getTime() < setupWindowMs;
    // The call must be one our webhook answered, recently, with the same call id, and not relayed yet:
    // a replayed handshake (or a second socket for the call) gets nothing.
    if (!call || !fresh || claimedId !== String(call.id) || call.id !== this.boundCallId) return void this.ws.close(1008, 'Unknown call');
    const claimed = await em.nativeUpdate(PhoneCall, { id: call.id, relayStartedAt: null }, { relayStartedAt: new Date() });
    if (claimed !== 1) return void this.ws.close(1008, 'Call already connected');
    this.callId = call.id;
    if (setup.from && /^\+[1-9]\d{6,14}$/.test(setup.from)) this.callerNumber = setup.from;
  }

  private interrupt(utterance: string | null) {
    const running = this.running;
    if (running) {
      running.heard = utterance;
      running.controller.abort();
      return;
    }
    // The model had finished; Twilio was still speaking it: the stored reply becomes what was heard.
    const last = this.lastReply;
    if (last && utterance !== null) {
      void recordHeard(this.deps, this.deps.orm.em.fork(), last.userId, last.messageId, utterance).catch((error: unknown) =>
        this.deps.log.warn({ err: error }, 'what the caller heard was not stored'),
      );
    }
  }

  private send(token: string, last: boolean) {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify({ type: 'text', token, last }));
  }

  private say(text: string) {
    this.send(text, false);
    this.send('', true);
  }

  private end() {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify({ type: 'end' }));
  }

  private async loadCall(em: EntityManager) {
    const call = await em.findOneOrFail(PhoneCall, this.callId!);
    const owner = call.owner ? await em.findOne(User, call.owner.id) : null;
    return { call, owner };
  }

  private async turn(said: string): Promise<void> {
    const em = this.deps.orm.em.fork();
    const { call, owner } = await this.loadCall(em);
    // Deprovisioned during the call (deprovision.ts ends sessions, not a call in progress): the
    // next thing they say ends it, and reaches no coach.
    if (owner && !owner.active) {
      this.say(phoneTexts.accountEnded);
      this.end();
      return;
    }
    // A short goodbye ends the call, unless it is a goodbye of another kind ("goodbye, I won't be
    // here tomorrow"): that one reaches the coach turn, and its safety line.
    if (goodbyeWords.test(said) && said.split(/\s+/).length <= 6 && !isCrisis(screenMessage(said))) {
      this.say(phoneTexts.goodbye);
      this.end();
      return;
    }
    if (call.turns >= maxTurns) {
      this.say(phoneTexts.goodbye);
      this.end();
      return;
    }
    const speaker: Speaker = owner ? { kind: 'user', user: owner, clientIp: `phone:${this.callerNumber}` } : { kind: 'unknown', budgetKey: `phone:${this.callerNumber}`, callerNumber: this.callerNumber };
    let budget;
    try {
      budget = await takeTurnBudget(this.deps, speaker);
    } catch (error) {
      if (!(error instanceof RateLimitError)) throw error;
      this.say(phoneTexts.tooManyTurns);
      this.end();
      return;
    }
    const chat = owner && call.chat ? await em.findOne(Chat, { id: call.chat.id, owner: owner.id }) : null;
    const controller = new AbortController();
    let finish: () => void = () => {};
    const running: Running = { controller, heard: null, done: new Promise<void>((resolve) => (finish = resolve)) };
    this.running = running;
    this.lastReply = null;
    try {
      const result = await runSpokenTurn(this.deps, em, {
        path: 'phone',
        speaker,
        chat,
        text: said,
        budget,
        signal: controller.signal,
        onToken: (token) => this.send(token, false),
        heard: () => running.heard,
        chatTitle: phoneTexts.phoneChatTitle,
      });
      // (A phone turn is never provisional: 'failed' is the only other outcome here.)
      if (result.outcome !== 'answered') {
        // The call goes on: a short apology, and the caller may say it again.
        this.say(phoneTexts.apology);
        return;
      }
      if (!result.interrupted) this.send('', true);
      call.turns += 1;
      if (result.chat && !call.chat) call.chat = result.chat;
      await em.flush();
      if (owner && result.messageId !== null && !result.interrupted) this.lastReply = { messageId: result.messageId, userId: owner.id };
    } finally {
      this.running = null;
      finish();
    }
  }

  private async digit(digit: string): Promise<void> {
    const answer = await this.pin.keyIn(digit);
    if (answer !== null) this.say(answer);
    if (this.pin.callEnds) this.end();
  }
}
