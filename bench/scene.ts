// Figure 13 of npm run bench: a 20-line /scene (issue 39) played in voice, against the same 20 lines as /say, in the
// same run, on one bot against the fake Discord and the sandbox (its own servers process, 127.0.0.1 only). The
// sandbox is paced as figure 1 paces it: 300 ms before the first byte, the body at 0.25 of real time.
//   A, /scene: the form submitted, then "Play it" pressed; from the press's INTERACTION_CREATE to the first audio
//      packet, and to the scene's end (its last audio packet; its reply "🎬 Played the scene…" beside it).
//   B, /say one after another: each sent once the one before answered "Spoke …", as a member would; from the first
//      /say to the first audio packet, and to the last /say's end (last packet; its "Spoke" beside it).
//   B2, 20 /say at once: sent back to back, queued by the bot; the same two times.
// Every take's texts are its own (a take tag in each line), so nothing comes from the cache: each way must make
// exactly 20 speech requests, which are counted. The bench bot has no queue bounds or budgets (bench/bot.ts), so
// B2's 20 clips of one member are accepted, where SayBot's defaults (QUEUE_MAX_CLIPS 20, QUEUE_MAX_PER_MEMBER 3) would
// refuse all but three.
import { startBot, type BenchBot } from './bot.ts';
import { SAY_FINISHED, gatewayBudget, join } from './drive.ts';
import { benchGuild, type BenchGuild } from './guilds.ts';
import type { Dispatched } from './protocol.ts';
import { Servers } from './servers-client.ts';
import { DEFAULT_GAP_SECONDS } from '../src/features/scenes/script.ts';
import { percentile } from './stats.ts';

/** Figure 1's pacing: the Voice API's first byte after 300 ms, the body sent at 4x real time. */
export const SCENE_PACING = { startDelayMs: 300, realtimeFactor: 0.25 } as const;

const VOICES = { Ann: 'voice-b-en-f-01', Ben: 'voice-b-en-m-01', Kei: 'voice-b-ja-m-01' } as const;
type Speaker = keyof typeof VOICES;
const CAST = `cast: ${Object.entries(VOICES)
  .map(([name, voice]) => `${name} = ${voice}`)
  .join(', ')}`;

/** The dialogue: 20 turns of 3 speakers, 38 to 67 characters each once tagged (" Take S1."). */
const LINES: ReadonlyArray<readonly [Speaker, string]> = [
  ['Ann', 'Good evening, everyone, and welcome back to the stream.'],
  ['Ben', 'Thanks, Ann. Tonight we finally try the last dungeon.'],
  ['Kei', 'I brought potions for everyone, so do not be shy.'],
  ['Ann', 'Perfect. Who wants to lead the way in?'],
  ['Ben', 'I will, my shield can take the first hits from the guards.'],
  ['Kei', 'Careful, the floor in the second room gives way.'],
  ['Ann', 'Noted. Ben, wait for my signal before the door.'],
  ['Ben', 'Waiting. Tell me when the torches go out.'],
  ['Kei', 'They are out now. Go, go, go!'],
  ['Ann', 'Three guards on the left, one archer up on the balcony.'],
  ['Ben', 'I have the guards. Somebody please deal with that archer.'],
  ['Kei', 'On it. Two arrows, and he is down.'],
  ['Ann', 'Nice shot, Kei. Everyone, heal up before the boss.'],
  ['Ben', 'My shield is cracked, but it should hold a little longer.'],
  ['Kei', 'Here, drink this, it mends armour as well as wounds.'],
  ['Ann', 'Ready? On three we open the gate together.'],
  ['Ben', 'One, two, three, and the gate is open!'],
  ['Kei', 'That is a very large dragon, much larger than I expected.'],
  ['Ann', 'Stay calm, and remember the plan we made earlier.'],
  ['Ben', 'What plan? I thought you were the one with the plan!'],
];

/** The line as spoken in a take: its own text, so that it reaches the Voice API instead of the cache. */
const spoken = (text: string, take: string) => `${text} Take ${take}.`;

/** A take, timed in the servers process's clock from the first interaction the member sends. */
interface Take {
  firstAudioMs: number;
  /** To the last audio packet heard. */
  lastAudioMs: number;
  /** To the final reply ("🎬 Played the scene…", or the last /say's "Spoke …"). */
  replyMs: number;
  /** Audio packets heard, as seconds (20 ms each): the speech itself, gaps left out. */
  audioSeconds: number;
  speechRequests: number;
}

type Way = 'scene' | 'sequential' | 'queued';
const WAYS: readonly Way[] = ['scene', 'sequential', 'queued'];
const TAG: Record<Way, string> = { scene: 'S', sequential: 'B', queued: 'Q' };

/** Bounds: no wait is open-ended (the whole take is about a minute of audio). */
const STEP_TIMEOUT_MS = 20_000;
const TAKE_TIMEOUT_MS = 180_000;

/** The take's audio after the press or first /say: every audio packet once the guild has been quiet a while. */
async function heard(
  servers: Servers,
  guild: BenchGuild,
  startMs: number,
): Promise<{ firstMs: number; lastMs: number; seconds: number }> {
  const [audio] = await servers.call('waitAudio', {
    guildIds: [guild.guildId],
    minSeconds: 0,
    quietMs: 500,
    timeoutMs: STEP_TIMEOUT_MS,
  });
  const arrivals = (audio?.arrivals ?? []).filter((t) => t >= startMs);
  const first = arrivals[0];
  const last = arrivals.at(-1);
  if (first === undefined || last === undefined) throw new Error('no audio heard');
  return { firstMs: first - startMs, lastMs: last - startMs, seconds: arrivals.length * 0.02 };
}

/** Untimed takes run the first few lines only: enough to have run every path once. */
const WARM_UP_LINES = 3;

async function sceneTake(servers: Servers, guild: BenchGuild, take: string, lines = LINES): Promise<Take> {
  const script = [CAST, ...lines.map(([who, text]) => `${who}: ${spoken(text, take)}`)].join('\n');
  const member = { guildId: guild.guildId, userId: guild.userId };
  // /scene new without a file opens the form; its submit shows the private preview with "Play it".
  const form = await servers.call('command', { ...member, name: 'scene', subcommand: 'new' });
  const submitted = await servers.call('submitModal', {
    interactionId: form.interactionId,
    values: { script },
    timeoutMs: STEP_TIMEOUT_MS,
  });
  const preview = await servers.call('waitReply', {
    interactionId: submitted.interactionId,
    pattern: '.+',
    timeoutMs: STEP_TIMEOUT_MS,
  });
  const play = preview.customIds.find((id) => id.startsWith('scene:go:'));
  if (!preview.content.startsWith('🎬 **Scene**') || play === undefined)
    throw new Error(`/scene: no "Play it" under the preview: ${preview.content}`);
  await servers.call('clearAudio', { guildIds: [guild.guildId] });
  const before = await servers.call('speechRequestCount', {});
  const pressed = await servers.call('pressButton', { ...member, messageId: preview.messageId, customId: play });
  const reply = await servers.call('waitReply', {
    interactionId: pressed.interactionId,
    pattern: '^(?!🎬 Making).+',
    timeoutMs: TAKE_TIMEOUT_MS,
  });
  if (!reply.content.startsWith('🎬 Played the scene')) throw new Error(`/scene ended with "${reply.content}"`);
  const audio = await heard(servers, guild, pressed.dispatchedAtMs);
  return {
    firstAudioMs: audio.firstMs,
    lastAudioMs: audio.lastMs,
    replyMs: reply.atMs - pressed.dispatchedAtMs,
    audioSeconds: audio.seconds,
    speechRequests: (await servers.call('speechRequestCount', {})) - before,
  };
}

const sayLine = (guild: BenchGuild, [who, text]: readonly [Speaker, string], take: string) => ({
  guildId: guild.guildId,
  userId: guild.userId,
  name: 'say',
  options: { text: spoken(text, take), voice: VOICES[who] },
});

async function spokeAt(servers: Servers, sent: Dispatched): Promise<number> {
  const final = await servers.call('waitReply', {
    interactionId: sent.interactionId,
    pattern: SAY_FINISHED,
    timeoutMs: TAKE_TIMEOUT_MS,
  });
  if (!final.content.startsWith('Spoke')) throw new Error(`/say ended with "${final.content}"`);
  return final.atMs;
}

async function sayTake(
  servers: Servers,
  guild: BenchGuild,
  take: string,
  queued: boolean,
  lines = LINES,
): Promise<Take> {
  await servers.call('clearAudio', { guildIds: [guild.guildId] });
  const before = await servers.call('speechRequestCount', {});
  let startMs: number;
  let lastReplyAt: number;
  if (queued) {
    // Back to back, in one turn of the servers' event loop; the bot queues them in the order they arrive.
    const sent = await servers.call('commandMany', { commands: lines.map((line) => sayLine(guild, line, take)) });
    startMs = Math.min(...sent.map((s) => s.dispatchedAtMs));
    lastReplyAt = Math.max(...(await Promise.all(sent.map((s) => spokeAt(servers, s)))));
  } else {
    // As a member would: each /say once the one before has answered "Spoke".
    startMs = Number.NaN;
    lastReplyAt = Number.NaN;
    for (const line of lines) {
      const sent = await servers.call('command', sayLine(guild, line, take));
      if (Number.isNaN(startMs)) startMs = sent.dispatchedAtMs;
      lastReplyAt = await spokeAt(servers, sent);
    }
  }
  const audio = await heard(servers, guild, startMs);
  return {
    firstAudioMs: audio.firstMs,
    lastAudioMs: audio.lastMs,
    replyMs: lastReplyAt - startMs,
    audioSeconds: audio.seconds,
    speechRequests: (await servers.call('speechRequestCount', {})) - before,
  };
}

function take(servers: Servers, guild: BenchGuild, way: Way, tag: string, lines = LINES): Promise<Take> {
  const running =
    way === 'scene' ? sceneTake(servers, guild, tag, lines) : sayTake(servers, guild, tag, way === 'queued', lines);
  return Promise.race([
    running,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${way} take ${tag}: over ${TAKE_TIMEOUT_MS} ms`)), TAKE_TIMEOUT_MS).unref(),
    ),
  ]);
}

const median = (values: readonly number[]) => percentile(values, 50);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
/** Median (min–max) of the takes; one take: the value alone. */
const spread = (values: readonly number[], show: (x: number) => string) =>
  values.length === 1
    ? show(values[0] as number)
    : `${show(median(values))} (${show(Math.min(...values))}–${show(Math.max(...values))})`;

export async function measureScene(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const takes = mode === 'quick' ? 1 : 3;
  const guild = benchGuild(0);
  const servers = await Servers.start(2);
  let bot: BenchBot | undefined;
  const results: Record<Way, Take[]> = { scene: [], sequential: [], queued: [] };
  let complaints: string[] = [];
  let problems: string[] = [];
  try {
    bot = await startBot(servers.info);
    gatewayBudget.reset();
    await servers.call('setPacing', { pacing: SCENE_PACING });
    await join(servers, guild);
    const characters = LINES.reduce((sum, [, text]) => sum + spoken(text, 'S1').length, 0);
    const expected = await servers.call('expectedSeconds', {
      text: LINES.map(([, text]) => spoken(text, 'S1')).join(' '),
    });
    log(
      `scene: ${LINES.length} lines, ${characters} characters (about ${expected.toFixed(0)} s), ${takes} take(s) each way`,
    );
    // Untimed: each way once (its first lines), so that the code, the connections and the encoder have run before the clock does.
    for (const way of WAYS) {
      log(`scene: warm-up, ${way}`);
      await take(servers, guild, way, `W${TAG[way]}`, LINES.slice(0, WARM_UP_LINES));
    }
    for (let t = 1; t <= takes; t++) {
      // Each take in another order, so that no way always follows the same one.
      const order = WAYS.map((_, i) => WAYS[(i + t - 1) % WAYS.length] as Way);
      for (const way of order) {
        log(`scene: take ${t}, ${way}`);
        results[way].push(await take(servers, guild, way, `${TAG[way]}${t}`));
      }
    }
    complaints = bot.complaints();
    problems = await servers.call('problems', {});
  } finally {
    await bot?.stop();
    await servers.close();
  }

  const name: Record<Way, string> = {
    scene: 'A: one /scene, "Play it" pressed',
    sequential: 'B: 20 /say, each after the one before spoke',
    queued: 'B2: 20 /say sent at once (queued)',
  };
  const rows = WAYS.map((way) => {
    const r = results[way];
    const requests = r.map((x) => x.speechRequests);
    const all20 = requests.every((n) => n === LINES.length);
    const cells = [
      spread(
        r.map((x) => x.firstAudioMs),
        (ms) => `${ms.toFixed(0)} ms`,
      ),
      spread(
        r.map((x) => x.lastAudioMs),
        seconds,
      ),
      spread(
        r.map((x) => x.replyMs),
        seconds,
      ),
      spread(
        r.map((x) => x.audioSeconds * 1000),
        seconds,
      ),
      spread(
        r.map((x) => x.lastAudioMs - x.firstAudioMs - x.audioSeconds * 1000),
        seconds,
      ),
      all20 ? String(LINES.length) : `**${requests.join(', ')}**`,
    ];
    return `| ${name[way]} | ${cells.join(' | ')} |`;
  });
  const lengths = LINES.map(([, text]) => spoken(text, 'S1').length);
  const ratio = (way: Way) =>
    median(results[way].map((x) => x.lastAudioMs)) / median(results.scene.map((x) => x.lastAudioMs));
  return [
    '### Figure 13: a 20-line scene in voice against 20 /say (bench/scene.ts)',
    '',
    `${LINES.length} lines of dialogue, 3 speakers (${Object.values(VOICES).join(', ')}), ` +
      `${Math.min(...lengths)} to ${Math.max(...lengths)} characters each (${lengths.reduce((a, b) => a + b, 0)} in all), ` +
      `in one voice channel the bot is already in. Sandbox paced as figure 1: ${SCENE_PACING.startDelayMs} ms to the ` +
      `first byte, the body at ${SCENE_PACING.realtimeFactor} of real time. Each take's texts are its own (no cache), ` +
      `${takes} take(s) per way after an untimed warm-up, the ways in a rotating order; median (min–max). Times start ` +
      'at the INTERACTION_CREATE of the press ("Play it") for A, of the first /say for B and B2, and end at the first ' +
      'and last audio packet the fake Discord heard, or at the final reply ("🎬 Played the scene…", the last "Spoke"). ' +
      'Audio heard: audio packets × 20 ms; silence between lines: last − first audio − audio heard (a scene puts ' +
      `${DEFAULT_GAP_SECONDS} s between turns by design, ${((LINES.length - 1) * DEFAULT_GAP_SECONDS).toFixed(2)} s here). ` +
      'The bench bot has no queue bounds or budgets (bench/bot.ts), so ' +
      "B2's 20 clips of one member are accepted (SayBot's defaults, QUEUE_MAX_CLIPS 20 and QUEUE_MAX_PER_MEMBER 3, " +
      'would refuse all but three).',
    '',
    '| Way | First audio | Last audio | Final reply | Audio heard | Silence between lines | Voice API requests per take |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Last audio against the scene's (medians): B ×${ratio('sequential').toFixed(2)}, B2 ×${ratio('queued').toFixed(2)}.` +
      `${complaints.length + problems.length > 0 ? ` Problems seen: ${[...problems.map((p) => `fake Discord: ${p}`), ...complaints.map((c) => `bot: ${c}`)].slice(0, 5).join('; ')}.` : ''}`,
  ].join('\n');
}
