// Figure 25 of npm run bench: the owner's speech engines (issue 76). Doubles of a VOICEVOX engine and an
// OpenAI-compatible speech server (packages/engine-doubles, tones) run in the servers process beside the local Discord,
// as an owner's engines run apart from the bot; SayBot in the bench's process (bench/bot.ts) with VOICEVOX_URL and
// SPEECH_SERVER_URL set.
// (a) Time to first audio through an engine: for each line, the double's own answer asked directly with undici the
//     way SayBot's client asks it (VOICEVOX: /audio_query then /synthesis; the speech server: /v1/audio/speech as WAV),
//     read whole, in the bench's clock; then the same line through SayBot: /say in voice, from INTERACTION_CREATE
//     leaving the local Discord to the first audio packet at its voice server, and /say output:file, to the reply
//     carrying the file (both in the servers' clock). SayBot's overhead: each line's SayBot time minus its direct time.
// (b) A flood's effect on another server's line: the VOICEVOX double made slow (`slow:<ms>` on /synthesis, one line's
//     render), server A's members send 20 /say output:file in a VOICEVOX voice at once, and once two of them are being
//     rendered server B's member asks for one file in another VOICEVOX voice; B's time to its file beside B's alone,
//     and beside one line's render (the issue's bound: the flood delays B's line by no more than one render).
import { loadavg } from 'node:os';
import { Agent, request } from 'undici';
import { analyseClip } from '../src/core/audio/analysis/clip.ts';
import { startBot } from './bot.ts';
import { SAY_FINISHED, join } from './drive.ts';
import { FLOOD_GUILD, benchGuild, floodMember, type BenchGuild } from './guilds.ts';
import { Servers } from './servers-client.ts';
import { percentile } from './stats.ts';

const A = benchGuild(FLOOD_GUILD);
const B = benchGuild(1);
const VOICE_GUILD = benchGuild(0);
/** Server A's members: two files each (a member's share, src/features/speaking/file-shares.ts) make the flood's 20. */
const FLOODERS = 10;
const FLOOD_FILES = 2 * FLOODERS;
/** The VOICEVOX double's time to render a line in the flood: about what a CPU engine takes for a short line. */
const RENDER_MS = 1000;
const FLOOD_STYLE = 0;
const B_STYLE = 10;
const SPEECH_VOICE = 'af_heart';
const ANSWER_TIMEOUT_MS = 60_000;

/** Short chat lines, about a second and a half of audio each (the doubles make 0.06 s a character). */
const JA_LINES = [
  'こんばんは、配信へようこそ。',
  '少し遅れます、先に始めてください。',
  '次のレイドは何時からですか。',
  'さっきのクエスト、助かりました。',
  '音楽が少し大きいかもしれません。',
];
const EN_LINES = [
  'Good evening, and welcome.',
  'I will be a few minutes late.',
  'When does the next raid begin?',
  'Thanks for the help earlier.',
  'The music is a little loud.',
];

type EngineName = 'voicevox' | 'speech';

interface Sample {
  /** The double's own answer, asked directly, read whole. */
  directMs: number;
  /** The answer's own silence before its first sound (VOICEVOX's prePhonemeLength): heard as silence frames. */
  leadingMs: number;
  /** The same line through SayBot: /say to the first audio packet, or to the reply with the file. */
  sayBotMs: number;
}

/** The doubles' addresses, and the bench's own connections to them. */
interface Urls {
  voicevoxUrl: string;
  speechServerUrl: string;
  agent: Agent;
}

async function ok(response: Awaited<ReturnType<typeof request>>, what: string): Promise<Buffer> {
  const bytes = Buffer.from(await response.body.arrayBuffer());
  if (response.statusCode !== 200) throw new Error(`${what}: status ${response.statusCode}`);
  return bytes;
}

/** The silence a WAV begins with, in ms (samples below -60 dBFS). */
async function leadingSilenceMs(wav: Buffer): Promise<number> {
  const clip = await analyseClip(wav);
  const samples = clip.samples ?? new Float32Array(0);
  const first = samples.findIndex((x) => Math.abs(x) > 0.001);
  return ((first < 0 ? samples.length : first) / clip.sampleRate) * 1000;
}

/**
 * The double's own time to answer a line, asked as SayBot's client asks it (src/core/engines/engine-clients.ts), read
 * whole; and the silence its audio begins with.
 */
async function direct(
  urls: Urls,
  engine: EngineName,
  text: string,
  voice: string,
): Promise<{ ms: number; leadingMs: number }> {
  const start = performance.now();
  let wav: Buffer;
  if (engine === 'voicevox') {
    const query = await ok(
      await request(`${urls.voicevoxUrl}/audio_query?text=${encodeURIComponent(text)}&speaker=${voice}`, {
        method: 'POST',
        headers: { accept: 'application/json' },
        dispatcher: urls.agent,
      }),
      'audio_query',
    );
    wav = await ok(
      await request(`${urls.voicevoxUrl}/synthesis?speaker=${voice}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'audio/wav' },
        body: query,
        dispatcher: urls.agent,
      }),
      'synthesis',
    );
  } else {
    wav = await ok(
      await request(`${urls.speechServerUrl}/audio/speech`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'audio/wav' },
        body: JSON.stringify({ model: 'tts-1', input: text, voice, response_format: 'wav', speed: 1 }),
        dispatcher: urls.agent,
      }),
      'speech',
    );
  }
  const ms = performance.now() - start;
  return { ms, leadingMs: await leadingSilenceMs(wav) };
}

/** The VOICEVOX double's admin path (`/__double/`, at its origin). */
async function admin(urls: Urls, path: string, method: 'GET' | 'POST' | 'DELETE', body?: unknown): Promise<unknown> {
  const response = await request(`${new URL(urls.voicevoxUrl).origin}/__double/${path}`, {
    method,
    dispatcher: urls.agent,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`/__double/${path}: status ${response.statusCode} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

/** /say in voice: to the first audio packet; waits for the line to end and its closing silence. */
async function sayInVoice(servers: Servers, text: string, voice: string): Promise<number> {
  const g = VOICE_GUILD;
  await servers.call('clearAudio', { guildIds: [g.guildId] });
  const sent = await servers.call('command', {
    guildId: g.guildId,
    userId: g.userId,
    name: 'say',
    options: { text, voice },
  });
  const firstAt = await servers.call('firstPacket', {
    guildId: g.guildId,
    sinceMs: sent.dispatchedAtMs,
    timeoutMs: ANSWER_TIMEOUT_MS,
  });
  const final = await servers.call('waitResponse', {
    interactionId: sent.interactionId,
    pattern: SAY_FINISHED,
    timeoutMs: ANSWER_TIMEOUT_MS,
  });
  if (!final.startsWith('Spoke')) throw new Error(`/say in ${voice} ended with "${final.slice(0, 200)}"`);
  await servers.call('waitAudio', { guildIds: [g.guildId], minSeconds: 0, quietMs: 100, timeoutMs: 10_000 });
  return firstAt - sent.dispatchedAtMs;
}

interface Filed {
  ms: number;
  /** When the reply came, in the servers' clock. */
  atMs: number;
  content: string;
  file: boolean;
}

/** /say output:file from `member` of `g`: to the reply (the file, or a refusal in words). */
async function sayFile(servers: Servers, g: BenchGuild, userId: string, text: string, voice: string): Promise<Filed> {
  const sent = await servers.call('command', {
    guildId: g.guildId,
    userId,
    name: 'say',
    options: { text, voice, output: 'file' },
  });
  return replyOf(servers, sent);
}

async function replyOf(servers: Servers, sent: { interactionId: string; dispatchedAtMs: number }): Promise<Filed> {
  const reply = await servers.call('waitReply', {
    interactionId: sent.interactionId,
    pattern: '.+',
    timeoutMs: ANSWER_TIMEOUT_MS,
  });
  return {
    ms: reply.atMs - sent.dispatchedAtMs,
    atMs: reply.atMs,
    content: reply.content,
    file: reply.content.startsWith('Here is'),
  };
}

function mustBeFile(filed: Filed, what: string): Filed {
  if (!filed.file) throw new Error(`${what}: no file but "${filed.content.slice(0, 200)}"`);
  return filed;
}

/** (a) for one engine: `runs` lines (after `warmup`), each direct then in voice, and again direct then as a file. */
async function firstAudio(
  servers: Servers,
  urls: Urls,
  engine: EngineName,
  runs: number,
  warmup: number,
): Promise<{ voice: Sample[]; file: Sample[] }> {
  const lines = engine === 'voicevox' ? JA_LINES : EN_LINES;
  const engineVoice = engine === 'voicevox' ? String(B_STYLE) : SPEECH_VOICE;
  const voice = engine === 'voicevox' ? `voicevox:${B_STYLE}` : `speech:${SPEECH_VOICE}`;
  const inVoice: Sample[] = [];
  const asFile: Sample[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    // Each line of its own: SayBot caches engine audio by text and voice, and the file must not find the voice's.
    const line = lines[i % lines.length]!;
    const spoken = engine === 'voicevox' ? `${line}（${i}）` : `${line} (${i})`;
    const filed = engine === 'voicevox' ? `${line}［${i}］` : `${line} [${i}]`;
    const d1 = await direct(urls, engine, spoken, engineVoice);
    const voiceSample = {
      directMs: d1.ms,
      leadingMs: d1.leadingMs,
      sayBotMs: await sayInVoice(servers, spoken, voice),
    };
    const d2 = await direct(urls, engine, filed, engineVoice);
    const fileSample = {
      directMs: d2.ms,
      // A file is whole when posted: its leading silence is in it, not before it.
      leadingMs: 0,
      sayBotMs: mustBeFile(await sayFile(servers, VOICE_GUILD, VOICE_GUILD.userId, filed, voice), voice).ms,
    };
    if (i >= warmup) {
      inVoice.push(voiceSample);
      asFile.push(fileSample);
    }
  }
  return { voice: inVoice, file: asFile };
}

interface FloodRound {
  b: BLine;
  a: Filed[];
}

interface DoubleRecord {
  path: string;
  speaker?: number;
  /** Epoch ms, in the servers process (one host, one wall clock with the bench's). */
  at: number;
}

async function doubleRequests(urls: Urls): Promise<DoubleRecord[]> {
  return ((await admin(urls, 'requests', 'GET')) as { requests: DoubleRecord[] }).requests;
}

/** B's file, and when its line reached the engine (its /audio_query) after B asked: its wait in SayBot's queue. */
interface BLine extends Filed {
  toEngineMs: number;
  /** Whether B's line was the first sent to the engine after B asked (none of A's went before it). */
  nextSent: boolean;
}

/** B's member asks for one file in B_STYLE; the double's requests must have been cleared before A's lines, if any. */
async function bLine(servers: Servers, urls: Urls, text: string): Promise<BLine> {
  const askedAt = Date.now();
  const filed = mustBeFile(await sayFile(servers, B, B.userId, text, `voicevox:${B_STYLE}`), "B's file");
  const queries = (await doubleRequests(urls)).filter((r) => r.path === '/audio_query' && r.at >= askedAt);
  const mine = queries.findIndex((r) => r.speaker === B_STYLE);
  if (mine < 0) throw new Error("B's line never reached the engine");
  return { ...filed, toEngineMs: queries[mine]!.at - askedAt, nextSent: mine === 0 };
}

/** A's 20 files at once; once two are being rendered, B's one file; then every answer of A's. */
async function floodRound(servers: Servers, urls: Urls, round: number): Promise<FloodRound> {
  await admin(urls, 'requests', 'DELETE');
  const sent = await servers.call('commandMany', {
    commands: Array.from({ length: FLOOD_FILES }, (_, k) => ({
      guildId: A.guildId,
      userId: floodMember(k % FLOODERS),
      name: 'say',
      options: { text: `A's flood line ${round} ${k}, a file.`, voice: `voicevox:${FLOOD_STYLE}`, output: 'file' },
    })),
  });
  // A's lines are in the engine's queue once its renders began: the double has their /synthesis requests.
  const deadline = performance.now() + ANSWER_TIMEOUT_MS;
  for (;;) {
    // Counted by path alone (only A's lines are under way): the double reads a request's speaker after its pause.
    const requests = await doubleRequests(urls);
    if (requests.filter((r) => r.path === '/synthesis').length >= 2) break;
    if (performance.now() > deadline) throw new Error('the flood reached no render within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const b = await bLine(servers, urls, `B's own line in the flood ${round}.`);
  const a = await Promise.all(sent.map((s) => replyOf(servers, s)));
  return { b, a };
}

const p = (values: readonly number[], q: number): string => `${percentile(values, q).toFixed(0)}`;
const p50p95 = (values: readonly number[]): string => `${p(values, 50)} / ${p(values, 95)} ms`;

function kindOf(content: string): string {
  if (content.startsWith('Here is')) return 'the file';
  return content.replace(/\d+/g, '#').slice(0, 90);
}

export async function measureEngines(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const title =
    "## 25. The owner's engines: time to first audio, and a flood against another server's line (issue 76, bench/engines.ts)";
  const runs = mode === 'quick' ? 5 : 20;
  const warmup = 2;
  const rounds = mode === 'quick' ? 3 : 8;
  const servers = await Servers.start(FLOOD_GUILD + 1, undefined, undefined, FLOODERS);
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 8 });
  try {
    const urls = { ...(await servers.call('startEngines', {})), agent };
    const bot = await startBot(servers.info, {
      env: { VOICEVOX_URL: urls.voicevoxUrl, SPEECH_SERVER_URL: urls.speechServerUrl },
    });
    try {
      await join(servers, VOICE_GUILD);
      const first: Record<EngineName, { voice: Sample[]; file: Sample[] }> = {
        voicevox: { voice: [], file: [] },
        speech: { voice: [], file: [] },
      };
      for (const engine of ['voicevox', 'speech'] as const) {
        log(`engines: time to first audio through ${engine}, ${runs} lines in voice and as files`);
        first[engine] = await firstAudio(servers, urls, engine, runs, warmup);
      }

      log(`engines: the VOICEVOX double renders a line in ${RENDER_MS} ms; one line's render, direct`);
      await admin(urls, 'fault', 'POST', { fault: `slow:${RENDER_MS}`, path: '/synthesis' });
      const render: number[] = [];
      for (let i = 0; i < rounds; i++)
        render.push((await direct(urls, 'voicevox', `One line's render ${i}.`, String(B_STYLE))).ms);
      log(`engines: B's file alone, ${rounds} times`);
      const alone: BLine[] = [];
      for (let i = 0; i < rounds; i++) {
        await admin(urls, 'requests', 'DELETE');
        alone.push(await bLine(servers, urls, `B's own line alone ${i}.`));
      }
      log(`engines: A floods ${FLOOD_FILES} files at once, B asks one, ${rounds} rounds`);
      const flooded: FloodRound[] = [];
      for (let i = 0; i < rounds; i++) flooded.push(await floodRound(servers, urls, i));
      await admin(urls, 'fault', 'POST', { fault: 'none' });
      const complaints = bot.complaints();

      const rowA = (name: string, engine: EngineName, samples: Sample[]) => {
        const diff = samples.map((s) => s.sayBotMs - s.directMs - s.leadingMs);
        const voice = engine === 'voicevox' ? `voicevox:${B_STYLE}` : `speech:${SPEECH_VOICE}`;
        const leading = percentile(
          samples.map((s) => s.leadingMs),
          50,
        );
        return `| ${name} | ${voice} | ${p50p95(samples.map((s) => s.directMs))} | ${p50p95(samples.map((s) => s.sayBotMs))} | ${leading.toFixed(0)} ms | **${p50p95(diff)}** |`;
      };
      const ms = (lines: readonly Filed[]) => lines.map((f) => f.ms);
      const bAlone = ms(alone);
      const bFlood = ms(flooded.map((r) => r.b));
      const toEngineAlone = alone.map((b) => b.toEngineMs);
      const toEngineFlood = flooded.map((r) => r.b.toEngineMs);
      const renderP50 = percentile(render, 50);
      const delay = percentile(bFlood, 50) - percentile(bAlone, 50);
      const worst = Math.max(...bFlood) - percentile(bAlone, 50);
      const queued = percentile(toEngineFlood, 50) - percentile(toEngineAlone, 50);
      const before = flooded.filter((r) => {
        const files = r.a.filter((f) => f.file).map((f) => f.atMs);
        return files.length === 0 || r.b.atMs < Math.max(...files);
      }).length;
      const nextSent = flooded.filter((r) => r.b.nextSent).length;
      const kinds = new Map<string, number>();
      for (const r of flooded)
        for (const f of r.a) kinds.set(kindOf(f.content), (kinds.get(kindOf(f.content)) ?? 0) + 1);
      const aFiles = flooded.map((r) => r.a.filter((f) => f.file).length);
      const row = (name: string, values: readonly number[]) =>
        `| ${name} | ${p(values, 50)} ms | ${p(values, 95)} ms | ${Math.max(...values).toFixed(0)} ms |`;
      return [
        title,
        '',
        `Doubles of a VOICEVOX engine and an OpenAI-compatible speech server (packages/engine-doubles, test tones) in the servers process beside the local Discord; SayBot in the bench's process with VOICEVOX_URL and SPEECH_SERVER_URL set, its engine queue as it ships (2 lines in flight an engine, 4 a server), the bench's limits lifted. Load average ${(loadavg()[0] ?? 0).toFixed(1)} at the end (the host is shared).`,
        '',
        `(a) ${runs} lines an engine (after ${warmup} not counted), each of its own: the double's own answer asked directly with undici as SayBot's client asks it (VOICEVOX: /audio_query then /synthesis; the speech server: /v1/audio/speech as WAV), read whole; then the same line through SayBot, /say in voice (from INTERACTION_CREATE leaving the local Discord to the first audio packet with sound at its voice server); and again, another line first direct, then /say output:file (to the reply carrying the file). A VOICEVOX line begins with its query's prePhonemeLength, silence the player sends as silence frames: the first packet with sound comes that much later by the audio itself, so it is taken off. Overhead: each line's SayBot time minus its direct time (minus that silence), p50 / p95.`,
        '',
        "| Path | Voice | The double directly, p50 / p95 | Through SayBot, p50 / p95 | the audio's leading silence | SayBot's overhead, p50 / p95 |",
        '|---|---|---|---|---|---|',
        rowA('VOICEVOX, /say in voice', 'voicevox', first.voicevox.voice),
        rowA('VOICEVOX, /say output:file', 'voicevox', first.voicevox.file),
        rowA('speech server, /say in voice', 'speech', first.speech.voice),
        rowA('speech server, /say output:file', 'speech', first.speech.file),
        '',
        `(b) The VOICEVOX double made slow: \`slow:${RENDER_MS}\` on /synthesis, every line takes ${RENDER_MS} ms more to render. Server A's ${FLOODERS} members send ${FLOOD_FILES} /say output:file in \`voicevox:${FLOOD_STYLE}\` at once (two each, a member's share of files); once the double has two of A's lines rendering, server B's member asks for one file in \`voicevox:${B_STYLE}\`; then every one of A's answers is awaited. ${rounds} rounds; B's file alone ${rounds} times before, in the same run. B's file: from INTERACTION_CREATE leaving the local Discord to the reply carrying it. B's line to the engine: from B's asking to its /audio_query at the double (the wall clock of the one host): its wait in SayBot's queue.`,
        '',
        '| | p50 | p95 | max |',
        '|---|---|---|---|',
        row("one line's render (the slow double asked directly)", render),
        row("B's line to the engine, alone", toEngineAlone),
        row("B's line to the engine, while A floods", toEngineFlood),
        row("B's file, alone", bAlone),
        row("B's file, while A floods", bFlood),
        `| the flood's delay to B's file (p50 against p50; max against p50 alone) | **${delay.toFixed(0)} ms** | | ${worst.toFixed(0)} ms |`,
        '',
        `- The issue's bound, no more than one line's render of delay (${renderP50.toFixed(0)} ms): B's line waited ${queued.toFixed(0)} ms more for the engine (p50), ${queued <= renderP50 ? 'within' : '**over**'} one render; its file came ${delay.toFixed(0)} ms later (p50), ${delay <= renderP50 ? 'within' : `**${(delay - renderP50).toFixed(0)} ms over**`} one render${worst <= renderP50 ? ', the slowest too' : `, the slowest ${worst.toFixed(0)} ms`}.`,
        `- B's line was the next one sent to the engine after B asked in ${nextSent} of ${rounds} rounds; B's file came before A's last file in ${before} of ${rounds}; A got ${aFiles.join(', ')} files a round.`,
        `- A's ${FLOOD_FILES * rounds} answers by kind: ${[...kinds.entries()]
          .sort((x, y) => y[1] - x[1])
          .map(([kind, n]) => `${n} × "${kind}"`)
          .join('; ')}.`,
        `- The bot logged ${complaints.length} warnings or errors.`,
      ].join('\n');
    } finally {
      await bot.stop();
    }
  } finally {
    await agent.close();
    await servers.close();
  }
}
