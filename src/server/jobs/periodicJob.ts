import type { Logger } from 'pino';

export type PeriodicJob = {
  /** The run that started with the job (start-up waits for it; tests too). */
  firstRun: Promise<void>;
  /** Ends the schedule and waits for a run under way (shutdown). */
  stop(): Promise<void>;
};

/**
 * Runs `work` now and then every `intervalMs`, one run at a time (a tick that finds a run still
 * going is skipped, so slow runs never pile up), never throwing: a failure is logged with
 * `failure` and the schedule goes on. The timer never keeps the process alive. The data retention
 * and the orphaned-reply sweep run on it (per instance); the nudges and the goal reminders run on
 * the job queue (jobQueue.ts).
 */
export function startPeriodicJob(options: {
  work: (first: boolean) => Promise<unknown>;
  intervalMs: number;
  log: Logger;
  failure: string;
}): PeriodicJob {
  let running: Promise<void> | null = null;
  const run = (first: boolean) => {
    running = (async () => {
      try {
        await options.work(first);
      } catch (error) {
        options.log.warn({ err: error }, options.failure);
      } finally {
        running = null;
      }
    })();
    return running;
  };
  const firstRun = run(true);
  const timer = setInterval(() => {
    if (!running) void run(false);
  }, options.intervalMs);
  timer.unref();
  return {
    firstRun,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
