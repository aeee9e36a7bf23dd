// usage: node trace.mjs URL out.json [cpuRate]
import { chromium } from 'playwright';
const [url, out, rate = '4'] = process.argv.slice(2);
const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const ctx = await b.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
const p = await ctx.newPage();
const cdp = await ctx.newCDPSession(p);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(rate) });
await b.startTracing(p, { path: out, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading', 'disabled-by-default-v8.cpu_profiler'] });
const t0 = Date.now();
await p.goto(url, { waitUntil: 'networkidle' }); await p.waitForSelector('[data-app-placeholder]', { state: 'detached', timeout: 30000 });
await p.waitForTimeout(1500);
await b.stopTracing();
console.log('loaded in', Date.now() - t0, 'ms');
await b.close();
