// Runs before `npm test`: the end-to-end tests drive Debian's Chromium, the one program besides
// Node that the README asks to install. Without it, stop with one line saying what to install.
import fs from 'node:fs';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
try {
  fs.accessSync(chromium, fs.constants.X_OK);
} catch {
  console.error(
    `npm test needs Chromium at ${chromium} for the browser tests: install it with \`sudo apt-get install chromium\` (or set CHROMIUM_PATH to one).`,
  );
  process.exit(1);
}
