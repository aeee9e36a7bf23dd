// The longest task on a page's renderer main thread(s), from a Chromium performance trace
// (browser.startTracing with the 'toplevel' category): each task is a RunTask event there.
type TraceEvent = { name: string; ph: string; pid: number; tid: number; dur?: number; args?: { name?: string } };

/** The longest task in milliseconds, and how many tasks were over `overMs`. */
export function longestTaskOf(trace: Buffer, overMs = 50): { longestMs: number; over: number } {
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const mainThreads = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  let longestMs = 0;
  let over = 0;
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || !mainThreads.has(`${e.pid}:${e.tid}`)) continue;
    const ms = (e.dur ?? 0) / 1000;
    longestMs = Math.max(longestMs, ms);
    if (ms > overMs) over += 1;
  }
  return { longestMs, over };
}

/** The longest task in milliseconds. */
export function longestTask(trace: Buffer): number {
  return longestTaskOf(trace).longestMs;
}
