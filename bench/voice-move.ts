// Figure 28 of npm run bench: what a listener hears when Discord moves the bot's voice server mid-line (a new
// VOICE_SERVER_UPDATE, the old voice socket closed and its UDP session ended). One bot (in this process) and a servers
// process (the local Discord, in a session of its own as another machine, and the sandbox); the bot already in the
// member's voice channel. A /say of about 5 s, each take its own text; once the channel heard 1 s of it, the local
// Discord moves the voice server, in Discord's order (the new address first). Three conditions, a take of each a round:
// quiet (the baseline); the bot's main thread held up right as the move is sent (a busy loop here), while its sender
// thread goes on sending into the session that ended; and that again beside three burners (bench/burners.ts).
// test/e2e/voice-server-move.test.ts asserts what SayBot keeps whatever the load (nothing lost, nothing said twice
// beyond what a clip keeps); how much is said twice is how long the host kept the main thread from looking
// (src/core/voice/sender/main-thread-look.ts), a time: measured here.
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBot } from './bot.ts';
import { burners } from './burners.ts';
import { SAY_FINISHED, gatewayBudget, join, say, textLasting } from './drive.ts';
import { benchGuild, type BenchGuild } from './guilds.ts';
import { moveTake, type MoveTake } from './move-take.ts';
import { Servers } from './servers-client.ts';
import { failuresByCause } from './report.ts';
import { percentile } from './stats.ts';

const LINE_SECONDS = 5;
/** The move comes once the channel heard this many audio packets: 1 s of the line. */
const MOVE_AFTER_PACKETS = 50;
/** How long the main thread is held up as the move comes: the e2e test's hold-up. */
const HOLD_MS = 400;
const BURNERS = 3;
const STEP_TIMEOUT_MS = 30_000;

type Condition = 'quiet' | 'held' | 'held-busy';
const CONDITIONS: ReadonlyArray<{ condition: Condition; name: string }> = [
  { condition: 'quiet', name: 'Quiet (baseline)' },
  { condition: 'held', name: `Main thread held up ${HOLD_MS} ms at the move` },
  { condition: 'held-busy', name: `Held up ${HOLD_MS} ms, beside ${BURNERS} burners` },
];

interface Take extends MoveTake {
  /** Packets the bot sent to the session the move ended. */
  toEnded: number;
  /** Frames the channel got but could not play: not end-to-end encrypted, or failing to decrypt or decode. */
  faults: number;
  /** How long the main thread was held busy (0: not held). */
  heldMs: number;
  reply: string;
  load: number;
}

/** Busy for `ms`: this thread runs the bot, which hears of nothing meanwhile. */
function holdMainThread(ms: number): number {
  const from = performance.now();
  while (performance.now() < from + ms) {
    // Held.
  }
  return performance.now() - from;
}

async function take(servers: Servers, guild: BenchGuild, condition: Condition, tag: string): Promise<Take> {
  const { guildId } = guild;
  const stopBurning = condition === 'held-busy' ? burners(60_000, BURNERS) : () => {};
  try {
    // The burners started and burning; the bot's new voice session (after the last take's move) ready to speak.
    if (condition === 'held-busy') await sleep(1_000);
    await servers.call('daveReady', { guildId, timeoutMs: STEP_TIMEOUT_MS });
    await servers.call('clearAudio', { guildIds: [guildId] });
    const text = textLasting(LINE_SECONDS, 0.06, `Moved ${tag}`);
    const expected = await servers.call('expectedSeconds', { text });
    const toEndedBefore = await servers.call('packetsToEndedSession', { guildId });
    const sent = await say(servers, guild, text);
    await servers.call('packetsHeard', { guildId, count: MOVE_AFTER_PACKETS, timeoutMs: STEP_TIMEOUT_MS });
    // The request leaves before the hold-up begins: the local Discord moves while the bot's main thread is held.
    const moved = servers.call('moveVoiceServer', { guildId });
    const heldMs = condition === 'quiet' ? 0 : holdMainThread(HOLD_MS);
    await moved;
    const { content: reply } = await servers.call('waitReply', {
      interactionId: sent.interactionId,
      pattern: SAY_FINISHED,
      timeoutMs: STEP_TIMEOUT_MS,
    });
    const [heard] = await servers.call('waitAudio', {
      guildIds: [guildId],
      minSeconds: 0,
      quietMs: 1_000,
      timeoutMs: STEP_TIMEOUT_MS,
    });
    if (!heard) throw new Error(`voice-move: nothing heard in ${guildId}`);
    return {
      ...moveTake(heard.arrivals.length, expected, reply),
      toEnded: (await servers.call('packetsToEndedSession', { guildId })) - toEndedBefore,
      faults: heard.plaintextFrames + heard.daveFailures + heard.decryptFailures + heard.decodeFailures,
      heldMs,
      reply,
      load: loadavg()[0] ?? 0,
    };
  } finally {
    stopBurning();
  }
}

/** Median (min–max) of the takes. */
const spread = (values: readonly number[], show: (x: number) => string) =>
  `${show(percentile(values, 50))} (${show(Math.min(...values))}–${show(Math.max(...values))})`;
const signed = (x: number, digits = 0) => (Number.isFinite(x) ? `${x > 0 ? '+' : ''}${x.toFixed(digits)}` : 'n/a');

function row(name: string, takes: readonly Take[]): string {
  const extra = takes.map((t) => t.extraFrames);
  return (
    `| ${name} | ${takes.length} | ${spread(extra, (x) => `${signed(x * 0.02, 2)} s`)} | ${extra.map((x) => signed(x)).join(', ')} | ` +
    `${spread(
      takes.map((t) => t.toEnded),
      (x) => x.toFixed(0),
    )} | ${spread(
      takes.map((t) => t.toldOverHeard).filter(Number.isFinite),
      (x) => `${signed(x, 2)} s`,
    )} | ${takes.reduce((sum, t) => sum + t.faults, 0)} | ${spread(
      takes.map((t) => t.heldMs),
      (x) => x.toFixed(0),
    )} | ${spread(
      takes.map((t) => t.load),
      (x) => x.toFixed(1),
    )} |`
  );
}

export async function measureVoiceMove(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const rounds = mode === 'quick' ? 3 : 5;
  const guild = benchGuild(0);
  const servers = await Servers.start(1, undefined, undefined, undefined, true);
  const takes: Record<Condition, Take[]> = { quiet: [], held: [], 'held-busy': [] };
  let complaints: string[] = [];
  try {
    const bot = await startBot(servers.info);
    try {
      gatewayBudget.reset();
      await join(servers, guild);
      log('voice-move: one untimed take, quiet');
      await take(servers, guild, 'quiet', 'W1');
      for (let round = 1; round <= rounds; round++) {
        for (const { condition } of CONDITIONS) {
          const t = await take(servers, guild, condition, `${condition} ${round}`);
          log(
            `voice-move: ${condition} ${round}: ${signed(t.extraFrames)} frames, ${t.toEnded} to the ended session, ` +
              `reply ${signed(t.toldOverHeard, 2)} s (${t.reply}); held ${t.heldMs.toFixed(0)} ms, load ${t.load.toFixed(1)}`,
          );
          takes[condition].push(t);
        }
      }
      complaints = bot.complaints();
    } finally {
      await bot.stop();
    }
  } finally {
    await servers.close();
  }
  const unspoken = Object.values(takes)
    .flat()
    .filter((t) => !t.reply.startsWith('Spoke'));
  return [
    "## 28. A voice server move mid-line, quiet and with the bot's main thread held up (bench/voice-move.ts)",
    '',
    `A /say of about ${LINE_SECONDS} s (each take its own text) in a voice channel the bot is already in; once the ` +
      `channel heard ${MOVE_AFTER_PACKETS} audio packets (1 s), the local Discord moves the bot's voice server in ` +
      "Discord's order (a new VOICE_SERVER_UPDATE, then the old voice socket closed and its UDP session ended). Quiet " +
      `(the baseline); the bot's main thread held busy ${HOLD_MS} ms from the moment the move is sent (the sender ` +
      `thread goes on meanwhile); and that beside ${BURNERS} detached processes each burning a core. ${rounds} rounds ` +
      'of the three in turn, after one untimed quiet take; median (min–max). **Heard − expected**: the audio packets ' +
      "heard against the line's length (positive: said twice; negative: lost), and each take's in frames (20 ms). " +
      '**To the ended session**: packets the bot sent to the session the move ended (never heard). **Reply − heard**: ' +
      'the seconds the reply told against those heard. **Faults**: frames heard but not playable (plaintext, DAVE or ' +
      'transport decrypt failures, Opus decode failures), all takes.',
    '',
    '| Condition | takes | heard − expected | each take (frames) | to the ended session (packets) | reply − heard | faults | main thread held (ms) | load average |',
    '|---|---:|---:|---|---:|---:|---:|---:|---:|',
    ...CONDITIONS.map(({ condition, name }) => row(name, takes[condition])),
    ...(unspoken.length > 0
      ? ['', `Replies that did not say "Spoke": ${unspoken.map((t) => `"${t.reply}"`).join('; ')}.`]
      : []),
    ...(complaints.length > 0
      ? ['', `The bot logged ${complaints.length} warnings or errors: ${failuresByCause(complaints).join('; ')}.`]
      : []),
  ].join('\n');
}
