// Figure 19 of npm run bench: how many of SayBot's source files a /say in voice crosses (issue 55). One bot against
// the fake Discord and the sandbox (its own servers process, 127.0.0.1 only), the member in a voice channel. V8's
// precise coverage (node:inspector, the bot's main thread) is reset as the /say leaves the fake Discord, then taken at
// the first request to the Voice API (undici's request:create for the sandbox's /v1/tts, synchronously, before it is
// sent) and at the first packet the main thread lets go of: handed to the sender thread (src/core/voice/sender/, the
// default), or an RTP packet handed to a UDP socket (the clock and library senders). A file is counted when one of
// its functions ran in between; files under src/ and commands/ only (no library, no test fixture). The worker threads'
// files are not counted (their threads have isolates of their own): what is counted is the path the main thread walks.
// The /say in the channel is counted AGAIN_RUNS times: a file is on its path when every run crossed it, since a timer
// of the bot's own (the sender's 500 ms heartbeat, the forget-notices poll) that fires inside one run's window is not
// the /say's path; what any run crossed is given beside it.
import dgram from 'node:dgram';
import { Worker } from 'node:worker_threads';
import diagnostics from 'node:diagnostics_channel';
import { Session } from 'node:inspector';
import { fileURLToPath } from 'node:url';
import { startBot, type BenchBot } from './bot.ts';
import { SAY_FINISHED, say } from './drive.ts';
import { benchGuild } from './guilds.ts';
import { Servers } from './servers-client.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const COUNTED = ['src/', 'commands/'];
const STEP_TIMEOUT_MS = 30_000;
/** Times the /say in the channel is counted (its path: what every run crossed). */
const AGAIN_RUNS = 3;

interface ScriptCoverage {
  url: string;
  functions: Array<{ functionName: string; ranges: Array<{ count: number }> }>;
}

/** The bot's own files whose functions ran since the last take (which resets the counts). */
function take(session: Session): Set<string> {
  let result: ScriptCoverage[] | undefined;
  // A session on this thread answers synchronously: the counts are those of this very moment.
  session.post('Profiler.takePreciseCoverage', (error, reply) => {
    if (error) throw error;
    result = (reply as { result: ScriptCoverage[] }).result;
  });
  if (result === undefined) throw new Error('the inspector did not answer synchronously');
  const files = new Set<string>();
  for (const script of result) {
    if (!script.url.startsWith('file:')) continue;
    const file = fileURLToPath(script.url);
    if (!file.startsWith(ROOT)) continue;
    const relative = file.slice(ROOT.length);
    if (!COUNTED.some((dir) => relative.startsWith(dir))) continue;
    if (script.functions.some((f) => (f.ranges[0]?.count ?? 0) > 0)) {
      files.add(relative);
      // Which of a file's functions ran: what to look at when asking why a file is on the path.
      if (process.env.PATH_FILES_DETAIL === '1') {
        const ran = script.functions.filter((f) => (f.ranges[0]?.count ?? 0) > 0);
        process.stderr.write(`path-files ${relative}: ${ran.map((f) => f.functionName || '(anonymous)').join(', ')}\n`);
      }
    }
  }
  return files;
}

/** An RTP packet (version 2, past its 12-byte header), not the UDP keep-alive or the IP discovery. */
function isRtp(message: unknown): boolean {
  const buffer = Array.isArray(message) ? message[0] : message;
  return buffer instanceof Uint8Array && buffer.length > 12 && (buffer[0]! & 0xc0) === 0x80;
}

export interface PathFiles {
  toRequest: string[];
  toPacket: string[];
}

/** What every run crossed, and what any did. */
function acrossRuns(runs: readonly PathFiles[]): { every: PathFiles; any: PathFiles } {
  const every = (pick: (run: PathFiles) => string[]) =>
    [...new Set(runs.flatMap(pick))].filter((file) => runs.every((run) => pick(run).includes(file))).sort();
  const any = (pick: (run: PathFiles) => string[]) => [...new Set(runs.flatMap(pick))].sort();
  return {
    every: { toRequest: every((run) => run.toRequest), toPacket: every((run) => run.toPacket) },
    any: { toRequest: any((run) => run.toRequest), toPacket: any((run) => run.toPacket) },
  };
}

/** One /say, its files counted from its dispatch to its first request and to its first packet. */
async function countOne(servers: Servers, session: Session, sandbox: string, text: string): Promise<PathFiles> {
  const guild = benchGuild(0);
  let stage: 'idle' | 'request' | 'packet' = 'idle';
  let toRequest = new Set<string>();
  let reached: () => void = () => undefined;
  const packet = new Promise<void>((resolve) => (reached = resolve));
  const toPacket = new Set<string>();
  const onRequest = (message: unknown) => {
    const { request } = message as { request: { origin: string; path: string } };
    if (stage !== 'request' || request.origin !== sandbox || !request.path.startsWith('/v1/tts')) return;
    toRequest = take(session);
    for (const file of toRequest) toPacket.add(file);
    stage = 'packet';
  };
  const packetLeaves = () => {
    for (const file of take(session)) toPacket.add(file);
    stage = 'idle';
    reached();
  };
  const send = dgram.Socket.prototype.send;
  dgram.Socket.prototype.send = function (this: dgram.Socket, ...args: unknown[]) {
    if (stage === 'packet' && isRtp(args[0])) packetLeaves();
    return (send as (...a: unknown[]) => void).apply(this, args);
  } as typeof send;
  // The sender thread's first packets: written into the voice's ring, then one message wakes the thread to read them.
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, ...args: unknown[]) {
    if (stage === 'packet' && (args[0] as { type?: unknown } | null)?.type === 'wake') packetLeaves();
    return (post as (...a: unknown[]) => void).apply(this, args);
  } as typeof post;
  diagnostics.subscribe('undici:request:create', onRequest);
  try {
    take(session);
    stage = 'request';
    const sent = await say(servers, guild, text);
    await Promise.race([
      packet,
      new Promise((_, reject) => setTimeout(() => reject(new Error('no packet')), STEP_TIMEOUT_MS).unref()),
    ]);
    const final = await servers.call('waitResponse', {
      interactionId: sent.interactionId,
      pattern: SAY_FINISHED,
      timeoutMs: STEP_TIMEOUT_MS,
    });
    if (!final.startsWith('Spoke')) throw new Error(`the /say ended with "${final}"`);
  } finally {
    dgram.Socket.prototype.send = send;
    Worker.prototype.postMessage = post;
    diagnostics.unsubscribe('undici:request:create', onRequest);
    stage = 'idle';
  }
  return { toRequest: [...toRequest].sort(), toPacket: [...toPacket].sort() };
}

/** The first /say of a fresh bot (it joins the member's channel), then a second one in the channel it is in. */
export async function countPathFiles(
  log: (line: string) => void,
): Promise<{ first: PathFiles; again: PathFiles; againAny: PathFiles }> {
  const servers = await Servers.start(1);
  let bot: BenchBot | undefined;
  const session = new Session();
  session.connect();
  try {
    bot = await startBot(servers.info);
    const sandbox = new URL(servers.info.sandboxUrl).origin;
    session.post('Profiler.enable');
    session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    const first = await countOne(servers, session, sandbox, 'A first line, counted from the command to its packet.');
    const runs: PathFiles[] = [];
    for (let run = 0; run < AGAIN_RUNS; run++)
      // Each its own words: the same words again would come from the cache, with no request to count to.
      runs.push(await countOne(servers, session, sandbox, `Line ${run + 2}, with the bot already in the channel.`));
    const { every: again, any: againAny } = acrossRuns(runs);
    for (const [name, files] of [
      ['first /say, to its first request', first.toRequest],
      ['first /say, to its first packet', first.toPacket],
      ['second /say, to its first request', again.toRequest],
      ['second /say, to its first packet', again.toPacket],
      [
        'second /say, to its request in a run but not every run',
        againAny.toRequest.filter((f) => !again.toRequest.includes(f)),
      ],
      [
        'second /say, to its packet in a run but not every run',
        againAny.toPacket.filter((f) => !again.toPacket.includes(f)),
      ],
    ] as const)
      log(`path-files: ${name} (${files.length}): ${files.join(' ')}`);
    return { first, again, againAny };
  } finally {
    session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
    await bot?.stop();
    await servers.close();
  }
}

export async function measurePathFiles(log: (line: string) => void): Promise<string> {
  const { first, again, againAny } = await countPathFiles(log);
  return [
    '### Figure 19: the source files a /say crosses (bench/path-files.ts)',
    '',
    "A /say in the member's voice channel, against the fake Discord and the sandbox: the files under src/ and " +
      "commands/ with a function that ran on the bot's main thread (V8 precise coverage, reset as the command leaves " +
      'the fake Discord), counted at the first request to the Voice API and at the first packet handed to the ' +
      'sender thread (or to the socket, with another sender). The first /say of a fresh bot also joins the channel; the second finds the bot there, ' +
      `counted ${AGAIN_RUNS} times: its files are those every run crossed (a timer of the bot's own firing inside one run is not its path), ` +
      "those any run crossed beside them. The audio workers' " +
      'files are not counted. The lists are in the run log (with PATH_FILES_DETAIL=1, the functions that ran in each file).',
    '',
    '| /say | Files to the first request | Files to the first packet |',
    '|---|---:|---:|',
    `| First (joins) | ${first.toRequest.length} | ${first.toPacket.length} |`,
    `| Second (in the channel), every run of ${AGAIN_RUNS} | ${again.toRequest.length} | ${again.toPacket.length} |`,
    `| Second (in the channel), any run | ${againAny.toRequest.length} | ${againAny.toPacket.length} |`,
  ].join('\n');
}
