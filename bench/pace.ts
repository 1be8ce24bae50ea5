// Figure 24 of npm run bench (issue 68, measured from outside): another server's voice keeps its pace while one
// server's largest free scene is mixed as MP3. The real bot (bench/bot.ts, SayBot's sender thread) against the local
// Discord in the servers process (bench/servers.ts), started in a session of its own as Discord is another machine,
// whose UDP receive thread stamps every datagram. Server B's member has long /say spoken in voice, one after another
// (the sandbox's paid voice, streamed at 4x real time), while server A's member, in rows: does nothing (idle); has
// the largest scene SayBot allows in the free voice (SCENE_CAPS: 60 lines, 4,000 spoken characters, 30 s of pauses)
// made and posted as an MP3 file through SayBot's whole path (/scene new with the script as a .txt, output:file
// format:mp3, "Play it" pressed); the same with three detached CPU burners (bench/burners.ts); and with the burners
// and a flood of free lines in A besides (figure 20's, bench/flood.ts). B's pace: the gaps between its consecutive
// audio packets within each clip, counted between A's press and A's answer (over 60 ms: a listener hears a gap). The
// sender thread's own lateness (due to sent) and underruns beside them tell a late sender from a late supply; the
// library cycle ('library', @discordjs/voice's) on the busy scene row as the baseline.
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { OPUS_ENCODER_SETTINGS } from '../src/core/cache/audio-fill.ts';
import { freeVoiceInstalled } from '../src/core/free-voice/free-voice-engine.ts';
import type { VoiceSenderKind } from './senders/senders.ts';
import { senderThread } from '../src/core/voice/sender/sender-thread.ts';
import { SCENE_CAPS } from '../src/features/scenes/script.ts';
import { startBot, type BenchBot } from './bot.ts';
import { burners } from './burners.ts';
import { SAY_FINISHED, gatewayBudget, join, say, textLasting } from './drive.ts';
import { FLOODERS, PER_SECOND, SAYBOT_DEFAULTS, setUp } from './flood.ts';
import { FLOOD_GUILD, benchGuild, benchGuilds, floodMember } from './guilds.ts';
import { largestFreeScript } from './largest-scene.ts';
import { setSenderScheduling, waitSnapshot, waitsBetween, type WindowWaits } from './run-queue.ts';
import type { FloodCounts, FloodPlan } from './protocol.ts';
import { Servers } from './servers-client.ts';
import { gaps, max, percentile } from './stats.ts';

const SECONDS_PER_CHARACTER = 0.06; // the sandbox's default
/** A gap a listener hears (the issue's criterion). */
const HEARD_GAP_MS = 60;
/** Packets stamped this close after another came together (20 ms apart is the pace). */
const BURST_MS = 5;
/** B's clips: each this long; B says one after another until A's job is answered. */
const CLIP_SECONDS = 30;
/** The busy rows' burners: three other processes, as the criterion's host has. */
const BURNERS = 3;
/** Each burner ends by itself after this, whatever happens to the bench. */
const BURN_LIMIT_MS = 10 * 60_000;
const STEP_TIMEOUT_MS = 60_000;
/** A's scene, from the press to its answer: past SCENE_JOB_TIMEOUT_MS's 2 minutes of mixing, the lines' making too. */
const SCENE_TIMEOUT_MS = 10 * 60_000;
const A = benchGuild(FLOOD_GUILD);
const B = benchGuild(1);

/** One row: what ran beside B, and what B's voice was heard as over A's job. */
interface Row {
  sender: VoiceSenderKind;
  /** The sender thread's scheduling over the row (real-time where the host allows it, as SayBot asks). */
  scheduling: 'real-time' | 'ordinary' | undefined;
  name: string;
  burners: number;
  /** A's job, press to answer, s; and its answer's first words (the scene posted, or what went wrong). */
  aSeconds: number;
  aAnswer: string;
  clips: number;
  /** B's audio packets within the window. */
  packets: number;
  gapMaxMs: number;
  /**
   * Packets that came within BURST_MS of the one that ended the largest gap, one after another: sent in their slots
   * and held on the way (or sent late together, which the sender's own lateness would show).
   */
  burstAfterMax: number;
  gapP99Ms: number;
  /** Gaps over HEARD_GAP_MS. */
  heard: number;
  /** Between two datagrams of any kind within a clip: a datagram sent (or stamped) late. */
  datagramGapMaxMs: number;
  /** Silence frames within a clip: a slot with no packet ready (the supply late), held by silence. */
  standIns: number;
  /** The sender thread's own figures over the window (none for the library cycle, which keeps none). */
  senderLateP99Ms: number | undefined;
  senderLateMaxMs: number | undefined;
  underruns: number | undefined;
  skippedSlots: number | undefined;
  load: number;
  /** The bot's process (all threads) over the window, % of one core. */
  cpuPct: number;
  /** How long its threads waited for a core over the window (Linux). */
  waits: WindowWaits | undefined;
  flood?: FloodCounts;
}

/** What B heard in one clip: audio packets and silence frames, in the servers' clock. */
interface Clip {
  arrivals: number[];
  silences: number[];
}

/** A's member: the scene as a .txt, output:file in `format`, "Play it" pressed; seconds from the press to the answer. */
export async function sceneAsFile(
  servers: Servers,
  script: string,
  format: 'mp3' | 'wav' = 'mp3',
): Promise<{ seconds: number; answer: string }> {
  const member = { guildId: A.guildId, userId: A.userId };
  const asked = await servers.call('commandWithFile', {
    spec: { ...member, name: 'scene', subcommand: 'new', options: { output: 'file', format } },
    option: 'script',
    fileName: 'scene.txt',
    text: script,
    contentType: 'text/plain',
  });
  const preview = await servers.call('waitReply', {
    interactionId: asked.interactionId,
    pattern: '.+',
    timeoutMs: STEP_TIMEOUT_MS,
  });
  const play = preview.customIds.find((id) => id.startsWith('scene:go:'));
  if (!preview.content.startsWith('🎬 **Scene**') || play === undefined)
    throw new Error(`/scene: no "Play it" under the preview: ${preview.content}`);
  const pressed = await servers.call('pressButton', { ...member, messageId: preview.messageId, customId: play });
  const answer = await servers.call('waitReply', {
    interactionId: pressed.interactionId,
    pattern: '^(?!🎬 Making).+',
    timeoutMs: SCENE_TIMEOUT_MS,
  });
  // The posted scene's line names the member (a mention) and its length: only the length is kept.
  const posted = /scene: \d+ voices?, ([\d.]+) s/.exec(answer.content);
  return {
    seconds: (answer.atMs - pressed.dispatchedAtMs) / 1000,
    answer: posted ? `posted, ${posted[1]} s of audio` : (answer.content.split('\n')[0] ?? '').slice(0, 80),
  };
}

/** B's clips, one after another, until `done` settles (at least one); `speaking` once the first is heard. */
export async function speakB(
  servers: Servers,
  tag: string,
  done: Promise<unknown>,
  speaking: () => void,
): Promise<Clip[]> {
  let over = false;
  const end = () => void (over = true);
  done.then(end, end);
  const clips: Clip[] = [];
  for (let k = 0; k === 0 || !over; k++) {
    await servers.call('clearAudio', { guildIds: [B.guildId] });
    const sent = await say(servers, B, textLasting(CLIP_SECONDS, SECONDS_PER_CHARACTER, `B ${tag} clip ${k}`));
    if (k === 0)
      void servers
        .call('firstPacket', { guildId: B.guildId, sinceMs: sent.dispatchedAtMs, timeoutMs: STEP_TIMEOUT_MS })
        .then(speaking, speaking);
    const final = await servers.call('waitResponse', {
      interactionId: sent.interactionId,
      pattern: SAY_FINISHED,
      timeoutMs: STEP_TIMEOUT_MS + CLIP_SECONDS * 4000,
    });
    if (!final.startsWith('Spoke')) throw new Error(`B's /say ended with "${final}"`);
    const [audio] = await servers.call('waitAudio', {
      guildIds: [B.guildId],
      minSeconds: 0,
      quietMs: 300,
      timeoutMs: STEP_TIMEOUT_MS,
    });
    clips.push({ arrivals: audio?.arrivals ?? [], silences: audio?.silences ?? [] });
  }
  return clips;
}

/** B's pace over [from, to] (the servers' clock): gaps between consecutive packets of a clip, both inside it. */
export function paceOf(clips: Clip[], from: number, to: number) {
  const inside = (t: number) => t >= from && t <= to;
  const audio: number[] = [];
  const datagrams: number[] = [];
  let packets = 0;
  let standIns = 0;
  let largest = { gap: 0, burst: 0 };
  for (const clip of clips) {
    const first = clip.arrivals[0] ?? 0;
    const last = clip.arrivals.at(-1) ?? 0;
    const within = clip.arrivals.filter(inside);
    packets += within.length;
    const between = gaps(within);
    audio.push(...between);
    between.forEach((gap, i) => {
      if (gap <= largest.gap) return;
      let burst = 0;
      while ((between[i + 1 + burst] ?? Infinity) < BURST_MS) burst += 1;
      largest = { gap, burst };
    });
    const held = clip.silences.filter((t) => t > first && t < last && inside(t));
    standIns += held.length;
    datagrams.push(...gaps([...within, ...held].sort((x, y) => x - y)));
  }
  return {
    packets,
    gapMaxMs: max(audio),
    burstAfterMax: largest.burst,
    gapP99Ms: percentile(audio, 99),
    heard: audio.filter((g) => g > HEARD_GAP_MS).length,
    datagramGapMaxMs: max(datagrams),
    standIns,
  };
}

interface RowPlan {
  name: string;
  burners: number;
  /** The sender thread at ordinary scheduling for this row, not at the real-time priority SayBot asks for. */
  ordinary?: boolean;
  /** A's job beside B: nothing for `idleMs`, or the scene (and the flood). */
  work: (servers: Servers) => Promise<{ seconds: number; answer: string; flood?: FloodCounts }>;
}

async function row(servers: Servers, sender: VoiceSenderKind, plan: RowPlan, log: (line: string) => void) {
  log(`pace: ${sender}: ${plan.name}`);
  const stopBurning = plan.burners > 0 ? burners(BURN_LIMIT_MS, plan.burners) : () => {};
  try {
    if (plan.burners > 0) await sleep(1000);
    let finish: () => void = () => {};
    const done = new Promise<void>((resolve) => (finish = resolve));
    let heardFirst: () => void = () => {};
    const speaking = new Promise<void>((resolve) => (heardFirst = resolve));
    const b = speakB(servers, `${sender} ${plan.name}`, done, heardFirst);
    await Promise.race([speaking, b]);
    const scheduling = sender === 'worker' ? await setSenderScheduling(plan.ordinary !== true) : undefined;
    await sleep(1000);
    if (sender === 'worker') await senderThread.stats(true);
    const from = await servers.call('now', {});
    const waitsBefore = waitSnapshot();
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    const a = await plan.work(servers).catch((error: unknown) => ({
      seconds: Number.NaN,
      answer: `failed: ${error instanceof Error ? error.message : String(error)}`,
    }));
    const to = await servers.call('now', {});
    const windowMs = performance.now() - wallBefore;
    const cpu = process.cpuUsage(cpuBefore);
    const waits = waitsBetween(waitsBefore, waitSnapshot(), windowMs);
    const own = sender === 'worker' ? await senderThread.stats() : undefined;
    const load = loadavg()[0] ?? 0;
    finish();
    const clips = await b;
    const result: Row = {
      sender,
      scheduling,
      name: plan.name,
      burners: plan.burners,
      aSeconds: a.seconds,
      aAnswer: a.answer,
      clips: clips.length,
      ...paceOf(clips, from, to),
      senderLateP99Ms: own ? percentile(own.lateMs, 99) : undefined,
      senderLateMaxMs: own ? max(own.lateMs) : undefined,
      underruns: own?.underruns,
      skippedSlots: own?.skippedSlots,
      load,
      cpuPct: ((cpu.user + cpu.system) / 1000 / windowMs) * 100,
      waits,
      ...('flood' in a && a.flood ? { flood: a.flood } : {}),
    };
    log(
      `pace: ${sender}${scheduling ? ` (${scheduling})` : ''}: ${plan.name}: A ${result.aSeconds.toFixed(1)} s (${result.aAnswer.slice(0, 60)}); B gap max ${result.gapMaxMs.toFixed(0)} ms, ${result.heard} over ${HEARD_GAP_MS} ms of ${result.packets} packets, p99 ${result.gapP99Ms.toFixed(1)} ms; sender late max ${result.senderLateMaxMs?.toFixed(1) ?? '–'} ms, ${result.underruns ?? '–'} underruns; ${result.burstAfterMax} packets in a burst after the largest gap; bot CPU ${result.cpuPct.toFixed(0)} %, waiting for a core: main thread ${fixed(waits?.mainPct)} %, the sender thread ${fixed(waits?.senderPct)} %, another worker at most ${fixed(waits?.workerMaxPct)} %; load ${load.toFixed(1)}`,
    );
    return result;
  } finally {
    stopBurning();
  }
}

async function onBot(
  servers: Servers,
  sender: VoiceSenderKind,
  plans: (sender: VoiceSenderKind) => RowPlan[],
  log: (line: string) => void,
  prepare: (servers: Servers) => Promise<void>,
): Promise<{ rows: Row[]; complaints: string[] }> {
  await servers.call('botOutOfVoice', { guildIds: benchGuilds(FLOOD_GUILD + 1).map((g) => g.guildId) });
  // SayBot's own queue bounds, free-request ration and log level, as figure 20 floods it; the script from the CDN.
  const env = {
    ...Object.fromEntries(SAYBOT_DEFAULTS.map((name) => [name, undefined])),
    ATTACHMENT_HOSTS: new URL(servers.info.restUrl).host,
  };
  let bot: BenchBot | undefined;
  const rows: Row[] = [];
  try {
    bot = await startBot(servers.info, { env, voicePlane: { encoding: OPUS_ENCODER_SETTINGS, sender } });
    gatewayBudget.reset();
    await prepare(servers);
    for (const plan of plans(sender)) rows.push(await row(servers, sender, plan, log));
    return { rows, complaints: bot.complaints().filter((line) => /"level":[456]\d/.test(line)) };
  } finally {
    await bot?.stop();
  }
}

const fixed = (x: number | undefined, digits = 0) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));

export async function measurePace(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const title =
    "## 24. Another server's voice keeps its pace beside the largest free scene mixed as MP3 (bench/pace.ts)";
  if (!freeVoiceInstalled()) {
    log('pace: eSpeak NG is not installed: figure 24 skipped');
    return `${title}\n\nSkipped: eSpeak NG (the optional \`espeak-ng\`) is not installed.`;
  }
  const lines = mode === 'quick' ? 12 : SCENE_CAPS.lines;
  const idleMs = mode === 'quick' ? 8_000 : 30_000;
  const loadAtStart = loadavg()[0] ?? 0;
  const servers = await Servers.start(FLOOD_GUILD + 1, undefined, undefined, FLOODERS, true);
  const rows: Row[] = [];
  const complaints: string[] = [];
  let takes = 0;
  const scene = (tag: string) => async (s: Servers) =>
    sceneAsFile(s, largestFreeScript(`${tag}${(takes += 1)}`, lines));
  let buttons: FloodPlan['buttons'] = [];
  /** The flood lasts as long as the busy scene row's scene took, within bounds. */
  let floodSeconds = 20;
  const sceneAndFlood = async (s: Servers) => {
    const plan: FloodPlan = {
      guildId: A.guildId,
      channelId: A.textChannelId,
      members: Array.from({ length: FLOODERS }, (_, k) => floodMember(k)),
      perSecond: PER_SECOND,
      seconds: floodSeconds,
      buttons,
      settleMs: 10_000,
      tag: `pace ${takes}`,
    };
    const [done, flood] = await Promise.all([scene('F')(s), s.call('flood', plan)]);
    return { ...done, flood };
  };
  try {
    await servers.call('setPacing', { pacing: { startDelayMs: 300, realtimeFactor: 0.25 } });
    const worker = await onBot(
      servers,
      'worker',
      () => [
        {
          name: 'idle host',
          burners: 0,
          work: () => sleep(idleMs).then(() => ({ seconds: idleMs / 1000, answer: '' })),
        },
        { name: 'A: the largest free scene as MP3', burners: 0, work: scene('Q') },
        {
          name: `idle, ${BURNERS} burners`,
          burners: BURNERS,
          work: () => sleep(idleMs).then(() => ({ seconds: idleMs / 1000, answer: '' })),
        },
        {
          name: `A: the largest free scene as MP3, ${BURNERS} burners`,
          burners: BURNERS,
          work: async (s) => {
            const done = await scene('S')(s);
            if (Number.isFinite(done.seconds)) floodSeconds = Math.min(120, Math.max(20, done.seconds));
            return done;
          },
        },
        {
          name: `A: the largest free scene as MP3, ${BURNERS} burners`,
          burners: BURNERS,
          ordinary: true,
          work: scene('O'),
        },
        {
          name: `A: the largest free scene as MP3 and a free flood (${PER_SECOND}/s), ${BURNERS} burners`,
          burners: BURNERS,
          work: sceneAndFlood,
        },
        {
          name: `A: the largest free scene as MP3 and a free flood (${PER_SECOND}/s), ${BURNERS} burners`,
          burners: BURNERS,
          ordinary: true,
          work: sceneAndFlood,
        },
      ],
      log,
      async (s) => {
        buttons = await setUp(s, log);
        log('pace: warm-up (a short free scene as MP3, untimed)');
        await sceneAsFile(s, largestFreeScript('W', 3));
      },
    );
    rows.push(...worker.rows);
    complaints.push(...worker.complaints);
    // A's voice queue (the flood's) drains before the next bot.
    await sleep(5_000);
    const library = await onBot(
      servers,
      'library',
      () => [{ name: `A: the largest free scene as MP3, ${BURNERS} burners`, burners: BURNERS, work: scene('L') }],
      log,
      async (s) => {
        await join(s, B);
        await sceneAsFile(s, largestFreeScript('WL', 3));
      },
    );
    rows.push(...library.rows);
    complaints.push(...library.complaints);
  } finally {
    await servers.close();
  }
  const floodLine = rows.flatMap((r) => {
    const f = r.flood;
    if (!f) return [];
    const sent = Object.values(f.sent).reduce((sum, n) => sum + n, 0);
    return [
      `- The flood (${r.sender}): ${sent} sent in ${(f.elapsedMs / 1000).toFixed(1)} s, ${f.didNotRespond} did not respond within 3 s, ${f.failedToSend} not sent; answers by kind: ${Object.entries(
        f.answers,
      )
        .sort((x, y) => y[1] - x[1])
        .slice(0, 4)
        .map(([kind, n]) => `${n} × "${kind}"`)
        .join('; ')}.`,
    ];
  });
  const table = rows.map(
    (r) =>
      `| ${r.sender} | ${r.name} | ${r.burners} | ${r.load.toFixed(1)} | ${r.aAnswer === '' ? '–' : `${fixed(r.aSeconds, 1)} s (${r.aAnswer})`} | ${r.clips} / ${r.packets} | ` +
      `${fixed(r.gapMaxMs)} ms${r.gapMaxMs > HEARD_GAP_MS ? ' (**over**)' : ''} | ${r.burstAfterMax} | ${r.heard} | ${fixed(r.gapP99Ms, 1)} ms | ${fixed(r.datagramGapMaxMs)} ms | ${r.standIns} | ` +
      `${r.senderLateP99Ms === undefined ? '–' : `${fixed(r.senderLateP99Ms, 1)} / ${fixed(r.senderLateMaxMs, 1)} ms`} | ${fixed(r.underruns)} | ${fixed(r.skippedSlots)} | ${fixed(r.cpuPct)} % | ${r.waits ? `${fixed(r.waits.mainPct)} / ${fixed(r.waits.senderPct)} / ${fixed(r.waits.workerMaxPct)} %` : '–'} |`,
  );
  return [
    title,
    '',
    `The real bot (SayBot's queue bounds, free-request ration and log level) against the local Discord in a process of its own session, whose UDP receive thread stamps B's packets (at SCHED_FIFO where the host allows it, the rest of that process an ordinary session: bench/servers.ts, stampsFirst). Server B's member has /say of about ${CLIP_SECONDS} s spoken in voice one after another (the sandbox's paid voice, 300 ms to its first byte, streamed at 4x real time); from one second into B's first clip, server A's member makes the largest free scene SayBot allows (${lines} lines in two free voices, ${Math.floor((SCENE_CAPS.characters * lines) / SCENE_CAPS.lines)} spoken characters, ${SCENE_CAPS.pauseTotalSeconds} s of pauses) posted as an MP3 file: /scene new with the script as a .txt, output:file, format:mp3, "Play it" pressed, every line new (no cache). Idle rows: ${idleMs / 1000} s with nothing from A. Burners: detached processes each burning a core (bench/burners.ts), on a host of 2 cores shared with other developers' work. The flood: figure 20's (${FLOODERS} members of A, ${PER_SECOND} a second through /say, the Speak menu, auto-read and "Play in my voice channel", all in the free voice) for as long as the busy scene took (${floodSeconds.toFixed(0)} s). A: from the press to the scene's answer. B's gaps: between consecutive audio packets of a clip, both stamped between the press and the answer (20 ms is none; over ${HEARD_GAP_MS} ms: a listener hears it); datagram gap: between two datagrams of any kind within a clip; stand-ins: silence frames within a clip (no packet ready in its slot). Sender late: the sender thread's own, due to sent, p99 / max, over the same window, with its underruns and skipped slots (given up when the thread was held past its catch-up: its lateness is counted after them, so a row with skipped slots held it longer than its lateness says; the library cycle keeps none). Burst after it: packets stamped within ${BURST_MS} ms of the one that ended the largest gap, one after another (sent in their slots and held on the way, when the sender was not late by as much). Bot CPU: the bot's process, all threads, over the window, % of one core. Waiting for a core: how long its main thread, the sender thread, and the other worker thread that waited most (Node names those alike), were runnable but not running over the window, % of it (Linux's schedstat). Load: the 1-minute load average at the row's end (${loadAtStart.toFixed(1)} at the start). One run on a shared host: noisy.`,
    '',
    '| Sender | Row | Burners | Load | A: scene | B clips / packets | B gap max | burst after it | over 60 ms | B gap p99 | B datagram gap max | B stand-ins | Sender late p99 / max | Underruns | Skipped slots | Bot CPU | Waiting for a core: main / sender / another worker at most |',
    '|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...table,
    '',
    ...floodLine,
    ...(complaints.length > 0
      ? [`- The bot logged ${complaints.length} warnings or errors; the first: ${complaints[0]?.slice(0, 300)}`]
      : []),
  ].join('\n');
}
