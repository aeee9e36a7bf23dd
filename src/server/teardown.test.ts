import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createTeardown } from './teardown.js';

describe('the teardown stack', () => {
  it('stops the parts newest first, goes on past a part that fails, and runs once', async () => {
    const stopped: string[] = [];
    const teardown = createTeardown(pino({ level: 'silent' }));
    teardown.defer('database', () => stopped.push('database'));
    teardown.defer('jobs', async () => {
      stopped.push('jobs');
      throw new Error('would not stop');
    });
    teardown.defer('http server', async () => stopped.push('http server'));
    await Promise.all([teardown.run(), teardown.run()]);
    await teardown.run();
    expect(stopped).toEqual(['http server', 'jobs', 'database']);
  });
});
