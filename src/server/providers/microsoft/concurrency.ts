// Exchange Online allows 4 concurrent requests per mailbox; more get 429s. Each mailbox (keyed by
// the user's id) gets one of these gates, shared by every request this instance makes for it.

export type Gate = <T>(work: () => Promise<T>) => Promise<T>;

export function createGate(limit: number): Gate {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await work();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}

/** One gate per key; gates of idle keys are dropped so the map stays small. */
export function createGateRegistry(limit: number) {
  const gates = new Map<string, { gate: Gate; users: number }>();
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      let entry = gates.get(key);
      if (!entry) {
        entry = { gate: createGate(limit), users: 0 };
        gates.set(key, entry);
      }
      const held = entry;
      held.users += 1;
      return held.gate(work).finally(() => {
        held.users -= 1;
        if (held.users === 0 && gates.get(key) === held) gates.delete(key);
      });
    },
  };
}
