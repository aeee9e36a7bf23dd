// The client side of bench/chat-stream.ts, in its own process: N chats, each with its own
// WebSocket subscription, one message each; records when every delta arrives.
import { createTRPCClient, createWSClient, httpLink, splitLink, wsLink } from '@trpc/client';
import WebSocket from 'ws';
import type { AppRouter } from '../src/server/trpc/root.js';

const [baseUrl, streamsArg] = process.argv.slice(2);
const streams = Number(streamsArg);

type Received = { stream: number; seq: number; text: string; atNs: string };
type StreamResult = { stream: number; received: Received[]; final: string; status: string };

class OriginWebSocket extends WebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols, { headers: { origin: baseUrl! } });
  }
}

async function runStream(stream: number): Promise<{ result: StreamResult; close: () => void }> {
  const wsClient = createWSClient({ url: `${baseUrl!.replace('http', 'ws')}/trpc`, WebSocket: OriginWebSocket as never });
  const client = createTRPCClient<AppRouter>({
    links: [splitLink({ condition: (op) => op.type === 'subscription', true: wsLink({ client: wsClient }), false: httpLink({ url: `${baseUrl}/trpc`, headers: { origin: baseUrl! } }) })],
  });
  const chat = await client.chats.create.mutate({ title: `bench ${stream}` });
  const received: Received[] = [];
  let resolveStarted!: () => void;
  let resolveDone!: (value: { final: string; status: string }) => void;
  const started = new Promise<void>((resolve) => (resolveStarted = resolve));
  const done = new Promise<{ final: string; status: string }>((resolve) => (resolveDone = resolve));
  const subscription = client.chats.events.subscribe({ chatId: chat.id }, {
    onStarted: () => resolveStarted(),
    onData: ({ data }) => {
      if (data.type === 'message.delta') {
        received.push({ stream, seq: data.seq, text: data.text, atNs: process.hrtime.bigint().toString() });
      } else if (data.type === 'message.completed' && data.message.role === 'assistant') {
        resolveDone({ final: data.message.content, status: data.message.status });
      }
    },
  });
  await started;
  await client.chats.send.mutate({ chatId: chat.id, content: `bench stream ${stream}` });
  const { final, status } = await done;
  // Like a browser tab, the client stays connected after its reply; all close at the end.
  return { result: { stream, received, final, status }, close: () => { subscription.unsubscribe(); wsClient.close(); } };
}

const runs = await Promise.all(Array.from({ length: streams }, (_, i) => runStream(i)));
for (const run of runs) run.close();
process.stdout.write(JSON.stringify(runs.map((run) => run.result)));
