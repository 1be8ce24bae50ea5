// Figure 11 of npm run bench: the free voice (issue 40). eSpeak NG in SayBot's worker threads (src/core/free-voice/)
// against the paid path in the same run: the sandbox Voice API over HTTP with the client SayBot uses, paced as
// figure 1 paces it (300 ms to the first byte, the body sent at 0.25 of real time). For each line: the time until
// its audio can start (the free voice's WAV is whole when it arrives; the paid path's first bytes), the time until
// it is all there, and the real-time factor (that time over the audio's length). Needs neither the bot nor Discord.
import { analyseClip } from '../src/core/audio/analysis/clip.ts';
import { VoiceApiClient } from '../src/core/api/client.ts';
import { freeVoiceInstalled, speakFree } from '../src/core/free-voice/free-voice-engine.ts';
import { startSandbox } from '@saybot/voice-sandbox';
import { percentile } from './stats.ts';

const LINES = [
  'Good evening, everyone, and welcome to the stream.',
  'I will be a few minutes late, start without me.',
  'Does anyone know when the next raid begins tonight?',
  'Thanks for the help with that quest earlier today.',
  'The music is a little loud, could someone turn it down?',
  'Let us meet in the lobby once the match is over.',
];

interface Timing {
  firstMs: number;
  wholeMs: number;
  audioSeconds: number;
}

const median = (values: readonly number[]) => percentile(values, 50);
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

async function freeLine(text: string): Promise<Timing> {
  const start = performance.now();
  const wav = await speakFree(text, 'free-en-f', 'bench');
  const wholeMs = performance.now() - start;
  return { firstMs: wholeMs, wholeMs, audioSeconds: (await analyseClip(wav)).durationSeconds };
}

async function paidLine(client: VoiceApiClient, text: string): Promise<Timing> {
  const start = performance.now();
  const response = await client.tts({ text, voice_id: 'voice-b-en-f-01', output_format: 'wav' });
  const chunks: Buffer[] = [];
  let firstMs: number | undefined;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    firstMs ??= performance.now() - start;
    chunks.push(chunk);
  }
  const wholeMs = performance.now() - start;
  return {
    firstMs: firstMs ?? wholeMs,
    wholeMs,
    audioSeconds: (await analyseClip(Buffer.concat(chunks))).durationSeconds,
  };
}

export async function measureFreeVoice(mode: 'quick' | 'full', log: (line: string) => void): Promise<string> {
  const rounds = mode === 'quick' ? 1 : 3;
  // eSpeak NG is an optional dependency: without it there is no free voice to measure, and the other figures go on.
  if (!freeVoiceInstalled()) {
    log('free voice: eSpeak NG is not installed (npm ci --omit=optional): figure 11 skipped');
    return '## 11. The free voice against the paid path (issue 40)\n\nSkipped: eSpeak NG (the optional `espeak-ng`) is not installed.';
  }
  log('free voice: the first line (its worker thread started, eSpeak NG compiled)');
  const cold = await freeLine(LINES[0]!);
  log(`free voice: ${LINES.length * rounds} lines, one after another`);
  const free: Timing[] = [];
  for (let round = 0; round < rounds; round++)
    for (const line of LINES) free.push(await freeLine(`${line} (${round})`));

  log('paid path: the same lines through the sandbox Voice API');
  const sandbox = await startSandbox({ pacing: { startDelayMs: 300, realtimeFactor: 0.25 } });
  const paid: Timing[] = [];
  try {
    const client = new VoiceApiClient({ baseUrl: sandbox.url, apiKey: sandbox.testKey });
    for (let round = 0; round < rounds; round++)
      for (const line of LINES) paid.push(await paidLine(client, `${line} (${round})`));
  } finally {
    await sandbox.close();
  }

  const row = (name: string, timings: Timing[]) => {
    const rtf = timings.map((t) => t.wholeMs / 1000 / t.audioSeconds);
    return `| ${name} | ${fmt(median(timings.map((t) => t.firstMs)))} | ${fmt(median(timings.map((t) => t.wholeMs)))} | ${median(timings.map((t) => t.audioSeconds)).toFixed(2)} s | ${median(rtf).toFixed(3)} |`;
  };
  return [
    '## 11. The free voice against the paid path (issue 40)',
    '',
    `${LINES.length * rounds} English lines of about 50 characters, one after another, medians. Free voice: \`free-en-f\`, eSpeak NG (WebAssembly) in SayBot's worker threads; its audio can start only once its WAV is whole. Paid path: the sandbox Voice API over HTTP with SayBot's client, paced as figure 1 (300 ms to the first byte, the body at 0.25 of real time; a tone as long as the sandbox makes the text). Real-time factor: time to the whole audio over the audio's length (below 1: faster than it is heard).`,
    '',
    '| Path | Audio can start after | All there after | Audio per line | Real-time factor |',
    '|---|---|---|---|---|',
    row('free voice', free),
    `| free voice, the first line (thread started, eSpeak NG compiled) | ${fmt(cold.firstMs)} | ${fmt(cold.wholeMs)} | ${cold.audioSeconds.toFixed(2)} s | ${(cold.wholeMs / 1000 / cold.audioSeconds).toFixed(3)} |`,
    row('paid path (sandbox)', paid),
  ].join('\n');
}
