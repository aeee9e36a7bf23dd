import { chromium } from 'playwright';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const [w, h, tag] of [[412, 823, 'm'], [1280, 800, 'd']]) {
  const ctx = await b.newContext({ viewport: { width: w, height: h }, javaScriptEnabled: false });
  const p = await ctx.newPage();
  await p.goto(process.argv[2], { waitUntil: 'load' });
  await p.screenshot({ path: `/tmp/ph-${tag}.png` });
  await ctx.close();
  const ctx2 = await b.newContext({ viewport: { width: w, height: h } });
  await ctx2.addInitScript(() => localStorage.setItem('ai-coach-onboarding-done', 'true'));
  const p2 = await ctx2.newPage();
  await p2.goto(process.argv[2], { waitUntil: 'networkidle' });
  await p2.waitForTimeout(800);
  await p2.keyboard.press('Escape'); await p2.waitForTimeout(400);
  await p2.screenshot({ path: `/tmp/real-${tag}.png` });
  await ctx2.close();
}
await b.close();
