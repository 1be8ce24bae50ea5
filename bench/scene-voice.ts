// Figure 26 of npm run bench (issue 95): another server's voice while a 300 s scene is mixed as a file, beside three
// busy processes. Figure 24's bot, servers and B (bench/pace.ts): server B's member has long /say spoken in voice one
// after another while, in turn, server A's member does nothing (the baseline, same run, same burners) and has the
// largest free scene (SCENE_CAPS: 60 lines, 327-337 s of audio) made and posted as a WAV file, then as an MP3 file.
// B's largest gap between consecutive audio packets of a clip (the local Discord's stamps), and beside it where a gap
// would come from: the main thread's longest stall (a 10 ms timer's largest lateness, and when it came after the
// press), the sender thread's own lateness and its underruns (slots with no packet handed over: the read-ahead ran
// out, so the main thread held it up).
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { OPUS_ENCODER_SETTINGS } from '../src/core/cache/audio-fill.ts';
import { freeVoiceInstalled } from '../src/core/free-voice/free-voice-engine.ts';
import { senderThread } from '../src/core/voice/sender/sender-thread.ts';
import { SCENE_CAPS } from '../src/features/scenes/script.ts';
import { startBot } from './bot.ts';
import { burners } from './burners.ts';
import { gatewayBudget } from './drive.ts';
import { SAYBOT_DEFAULTS } from './flood.ts';
import { FLOOD_GUILD, benchGuilds } from './guilds.ts';
import { largestFreeScript } from './largest-scene.ts';
import { paceOf, sceneAsFile, speakB } from './pace.ts';
import { setSenderScheduling } from './run-queue.ts';
import { Servers } from './servers-client.ts';
import { max, percentile } from './stats.ts';

const HEARD_GAP_MS = 60;
const BURNERS = 3;
const BURN_LIMIT_MS = 10 * 60_000;
/** The main thread's stall marker: a timer this often; its largest lateness is the longest stall. */
const TICK_MS = 10;

interface Row {
  name: string;
  answer: string;
  aSeconds: number;
  packets: number;
  gapMaxMs: number;
  heard: number;
  gapP99Ms: number;
  /** The main thread's longest stall over the window, ms, and when it ended after the window began, s. */
  stallMs: number;
  stallAtS: number;
  senderLateMaxMs: number;
  underruns: number;
  load: number;
}

/** The main thread's longest stall while it runs: a TICK_MS timer's largest lateness. */
function stallMarker(): () => { stallMs: number; atMs: number } {
  const start = performance.now();
  let last = start;
  let worst = { stallMs: 0, atMs: 0 };
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last - TICK_MS > worst.stallMs) worst = { stallMs: now - last - TICK_MS, atMs: now - start };
    last = now;
  }, TICK_MS);
  return () => {
    clearInterval(timer);
    return worst;
  };
}

async function row(
  servers: Servers,
  name: string,
  work: () => Promise<{ seconds: number; answer: string }>,
  log: (line: string) => void,
): Promise<Row> {
  log(`scene-voice: ${name}`);
  const stopBurning = burners(BURN_LIMIT_MS, BURNERS);
  try {
    await sleep(1000);
    let finish: () => void = () => {};
    const done = new Promise<void>((resolve) => (finish = resolve));
    let heardFirst: () => void = () => {};
    const speaking = new Promise<void>((resolve) => (heardFirst = resolve));
    const b = speakB(servers, `scene-voice ${name}`, done, heardFirst);
    await Promise.race([speaking, b]);
    await setSenderScheduling(true);
    await sleep(1000);
    await senderThread.stats(true);
    const from = await servers.call('now', {});
    const stalls = stallMarker();
    const a = await work().catch((error: unknown) => ({
      seconds: Number.NaN,
      answer: `failed: ${error instanceof Error ? error.message : String(error)}`,
    }));
    const stall = stalls();
    const to = await servers.call('now', {});
    const own = await senderThread.stats();
    finish();
    const pace = paceOf(await b, from, to);
    const result: Row = {
      name,
      answer: a.answer,
      aSeconds: a.seconds,
      packets: pace.packets,
      gapMaxMs: pace.gapMaxMs,
      heard: pace.heard,
      gapP99Ms: pace.gapP99Ms,
      stallMs: stall.stallMs,
      stallAtS: stall.atMs / 1000,
      senderLateMaxMs: max(own.lateMs),
      underruns: own.underruns,
      load: loadavg()[0] ?? 0,
    };
    log(
      `scene-voice: ${name}: A ${result.aSeconds.toFixed(1)} s (${result.answer}); B gap max ${result.gapMaxMs.toFixed(0)} ms (${result.heard} over ${HEARD_GAP_MS} ms); main thread stall ${result.stallMs.toFixed(0)} ms at ${result.stallAtS.toFixed(1)} s; sender late max ${result.senderLateMaxMs.toFixed(1)} ms, ${result.underruns} underruns; load ${result.load.toFixed(1)}`,
    );
    return result;
  } finally {
    stopBurning();
  }
}

const fixed = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

export async function measureSceneVoice(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const title =
    "## 26. Another server's voice while a 300 s scene is mixed as a file, three burners (bench/scene-voice.ts)";
  if (!freeVoiceInstalled()) {
    log('scene-voice: eSpeak NG is not installed: figure 26 skipped');
    return `${title}\n\nSkipped: eSpeak NG (the optional \`espeak-ng\`) is not installed.`;
  }
  const lines = mode === 'quick' ? 12 : SCENE_CAPS.lines;
  const runs = mode === 'quick' ? 1 : 2;
  const idleMs = mode === 'quick' ? 8_000 : 20_000;
  const servers = await Servers.start(FLOOD_GUILD + 1, undefined, undefined, undefined, true);
  const rows: Row[] = [];
  let takes = 0;
  const scene = (format: 'wav' | 'mp3') => () =>
    sceneAsFile(servers, largestFreeScript(`V${format}${(takes += 1)}`, lines), format);
  try {
    await servers.call('setPacing', { pacing: { startDelayMs: 300, realtimeFactor: 0.25 } });
    await servers.call('botOutOfVoice', { guildIds: benchGuilds(FLOOD_GUILD + 1).map((g) => g.guildId) });
    const env = {
      ...Object.fromEntries(SAYBOT_DEFAULTS.map((name) => [name, undefined])),
      ATTACHMENT_HOSTS: new URL(servers.info.restUrl).host,
    };
    const bot = await startBot(servers.info, {
      env,
      voicePlane: { encoding: OPUS_ENCODER_SETTINGS, sender: 'worker' },
    });
    try {
      gatewayBudget.reset();
      log('scene-voice: warm-up (a short free scene as WAV, untimed)');
      await sceneAsFile(servers, largestFreeScript('VW', 3), 'wav');
      for (let run = 0; run < runs; run++) {
        rows.push(
          await row(
            servers,
            'B alone (baseline)',
            () => sleep(idleMs).then(() => ({ seconds: idleMs / 1000, answer: '' })),
            log,
          ),
          await row(servers, 'A: the scene as WAV', scene('wav'), log),
          await row(servers, 'A: the scene as MP3', scene('mp3'), log),
        );
      }
    } finally {
      await bot.stop();
    }
  } finally {
    await servers.close();
  }
  const table = rows.map(
    (r) =>
      `| ${r.name} | ${r.answer === '' ? '–' : `${fixed(r.aSeconds, 1)} s (${r.answer})`} | ${r.packets} | ` +
      `${fixed(r.gapMaxMs)} ms${r.gapMaxMs > HEARD_GAP_MS ? ' (**over**)' : ''} | ${r.heard} | ${fixed(r.gapP99Ms, 1)} ms | ` +
      `${fixed(r.stallMs)} ms at ${fixed(r.stallAtS, 1)} s | ${fixed(r.senderLateMaxMs, 1)} ms | ${r.underruns} | ${r.load.toFixed(1)} |`,
  );
  return [
    title,
    '',
    `Figure 24's bot and local Discord (bench/pace.ts). Server B's member has /say of about 30 s spoken in voice one after another; over each row, server A's member does nothing for ${idleMs / 1000} s (the baseline), or makes the largest free scene (${lines} lines, ${percentile([SCENE_CAPS.pauseTotalSeconds], 50)} s of pauses, every line new) posted as a WAV file, then as an MP3 file (/scene new, output:file, "Play it" pressed). Every row beside ${BURNERS} detached processes each burning a core (bench/burners.ts); ${runs} run${runs > 1 ? 's' : ''} of the three rows in turn. B's gap: between consecutive audio packets of a clip, both stamped by the local Discord between A's press and A's answer (over ${HEARD_GAP_MS} ms: a listener hears it). Main thread stall: the largest lateness of a ${TICK_MS} ms timer on the bot's main thread over the window, and when (seconds after the press). Sender late: the sender thread's own, due to sent, max; underruns: slots it had no packet handed over for (the read-ahead ran out).`,
    '',
    '| Row | A: scene | B packets | B gap max | over 60 ms | B gap p99 | main thread stall | sender late max | underruns | load |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...table,
  ].join('\n');
}
