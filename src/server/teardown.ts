import type { Logger } from 'pino';

/**
 * What the server started, to stop again: each part registers how to stop it as soon as it is
 * started, and stopping runs them in reverse order (the last started stops first), whether the
 * server stops normally or failed while starting. A step that fails is logged and the rest still run.
 */
export type Teardown = {
  /** Registers how to stop what was just started. */
  defer(name: string, stop: () => Promise<unknown> | unknown): void;
  /** Runs every registered step, newest first; once (later calls wait for the same run). */
  run(): Promise<void>;
};

export function createTeardown(log: Logger): Teardown {
  const steps: Array<{ name: string; stop: () => Promise<unknown> | unknown }> = [];
  let running: Promise<void> | undefined;
  return {
    defer(name, stop) {
      steps.push({ name, stop });
    },
    run() {
      running ??= (async () => {
        while (steps.length) {
          const step = steps.pop()!;
          try {
            await step.stop();
          } catch (error) {
            log.error({ err: error, step: step.name }, 'a part of the server did not stop cleanly');
          }
        }
      })();
      return running;
    },
  };
}
