import { isLoopbackHost, type Config } from './config.js';

// What a start prints loudly, before anything else: settings that let in more than they seem to.

const framed = (lines: string[]) => {
  const rule = '!'.repeat(78);
  return `\n${rule}\n${lines.map((line) => `  ${line}`).join('\n')}\n${rule}\n`;
};

export function startWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.demoMode && !isLoopbackHost(config.host)) {
    warnings.push(framed([`WARNING: DEMO_MODE is on while HOST=${config.host} is reachable from other machines.`, 'Every visitor without a session acts as the demo user and sees its data.', 'Set DEMO_MODE=false for real accounts.']));
  }
  // 'Work accounts only' is password login off and demo mode off: with demo mode on, a visitor
  // without any account still gets a guest space and chats with the coach.
  if (!config.passwordLogin && config.demoMode) {
    warnings.push(
      framed([
        'WARNING: PASSWORD_LOGIN=false, but DEMO_MODE is on.',
        'Any visitor without an account still gets a guest space of their own and chats with the',
        'coach (and signs in as demo / demo1234), whatever MICROSOFT_ALLOWED_TENANTS says.',
        'Set DEMO_MODE=false too for work accounts only.',
      ]),
    );
  }
  return warnings;
}
