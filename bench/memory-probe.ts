// node --expose-gc --max-semi-space-size=16 bench/memory-probe.ts [--guilds=20] [--warmup=200] [--says=2000] [--every=500] [--snapshots=DIR]
// Figure 4's loop at a smaller size, for finding what grows: heap used after GC, RSS, external and array buffers
// after each step, and with --snapshots a heap snapshot after the first step and after the last (diff them in
// Chrome DevTools' Comparison view; the first step, not the warm-up, so that start-up's leftovers, collected
// during it, do not hide the slope). Writing a snapshot inflates RSS: read RSS from a run without them.
// Not part of `npm run bench`.
import { writeHeapSnapshot } from 'node:v8';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startBot } from './bot.ts';
import { gatewayBudget, join } from './drive.ts';
import { benchGuilds } from './guilds.ts';
import { sayMany, snapshot } from './memory.ts';
import { plan } from './plan.ts';
import { Servers } from './servers-client.ts';

const { values } = parseArgs({
  options: {
    guilds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '200' },
    says: { type: 'string', default: '2000' },
    every: { type: 'string', default: '500' },
    snapshots: { type: 'string' },
  },
});
const guildCount = Number(values.guilds);
const warmup = Number(values.warmup);
const says = Number(values.says);
const every = Number(values.every);
const text = plan('quick', ['memory']).memory.text;

const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);

const servers = await Servers.start(guildCount);
const bot = await startBot(servers.info, { bufferResponses: false });
try {
  gatewayBudget.reset();
  await servers.call('setPacing', { pacing: { startDelayMs: 0, realtimeFactor: 0 } });
  const guilds = benchGuilds(guildCount);
  for (const guild of guilds) await join(servers, guild);
  const failures: string[] = [];
  await sayMany(servers, guilds, 0, warmup, text, failures);
  const warm = await snapshot();
  let first: { done: number; heapUsedBytes: number } | undefined;
  let done = 0;
  const line = (label: string, s: Awaited<ReturnType<typeof snapshot>>): void => {
    // Request handlers @discordjs/rest holds (one per interaction token until swept: src/app/saybot.ts), in
    // the bot's client and the one interactions' answers go through.
    const handlers = bot.bot.client.rest.handlers.size + (bot.bot.interactionRest?.handlers.size ?? 0);
    // The slope from the first step on: the warm-up's end still holds start-up's garbage, collected during it.
    const slope =
      first === undefined || done === first.done
        ? '-'
        : `${((s.heapUsedBytes - first.heapUsedBytes) / (done - first.done)).toFixed(0)} B`;
    console.log(
      `${label}\trss ${mib(s.rssBytes)}\theap ${mib(s.heapUsedBytes)}\texternal ${mib(s.externalBytes)}\t` +
        `arrayBuffers ${mib(process.memoryUsage().arrayBuffers)}\thandlers ${handlers}\theap per /say since the first step ${slope}`,
    );
  };
  line('warm-up', warm);
  while (done < says) {
    const count = Math.min(every, says - done);
    await sayMany(servers, guilds, warmup + done, count, text, failures);
    done += count;
    const now = await snapshot();
    first ??= { done, heapUsedBytes: now.heapUsedBytes };
    line(`+${done}`, now);
    if (values.snapshots && done === count)
      console.log(writeHeapSnapshot(path.join(values.snapshots, 'first.heapsnapshot')));
  }
  if (values.snapshots) console.log(writeHeapSnapshot(path.join(values.snapshots, 'after.heapsnapshot')));
  console.log(`failures: ${failures.length}${failures.length > 0 ? ` (${failures.slice(0, 3).join(' | ')})` : ''}`);
  const complaints = bot.complaints();
  console.log(
    `bot complaints: ${complaints.length}${complaints.length > 0 ? `\n${complaints.slice(0, 5).join('\n')}` : ''}`,
  );
} finally {
  await bot.stop();
  await servers.close();
}
