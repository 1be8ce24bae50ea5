// Runs before every npm script that needs Node 24 (start, test, doctor, deploy-commands, sandbox, bench).
// Plain JavaScript with syntax old Node versions parse, so that an older Node says what is wrong in one line
// instead of failing on `.ts` files with a stack trace. The required version is read from package.json's
// "engines", the one place it is written.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const range = String((pkg.engines && pkg.engines.node) || '>=24.0.0');
const match = /(\d+)/.exec(range);
const requiredMajor = match ? Number(match[1]) : 24;
const foundMajor = Number(process.versions.node.split('.')[0]);

if (foundMajor < requiredMajor) {
  process.stderr.write(
    'SayBot needs Node.js ' +
      requiredMajor +
      ' or newer (it runs its TypeScript directly); found Node ' +
      process.version +
      ' at ' +
      process.execPath +
      '. Get Node ' +
      requiredMajor +
      ': `nvm install ' +
      requiredMajor +
      '` or `fnm install ' +
      requiredMajor +
      '`, or the installer from https://nodejs.org/en/download\n',
  );
  process.exit(1);
}
