// What the features ask of the nudges' queue: the port they call (settings, run now, the
// unsubscribe link), which the worker implements (nudgeWorker.ts: pg-boss behind it). A feature
// plans and queues runs through it and knows nothing of the queue's jobs.

export type NudgeClock = () => Date;

/** How a run is queued: the worker's enqueue (a no-op before the queue has started). */
export type RunSender = (runId: number, dueAt: Date) => Promise<void>;

export type NudgeQueue = {
  /** The queue's clock (pg-boss's TestClock in tests): quiet hours, the weekly cap and the plans read it. */
  clock: NudgeClock;
  /** Queues the job of a run, due at `dueAt` (a run already queued is not queued twice). */
  enqueue: RunSender;
  /** Wakes the idle workers: a run now is fetched at once. */
  kick(): void;
};
