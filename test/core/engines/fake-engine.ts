// A stand-in engine for these tests: a node:http server on 127.0.0.1 whose answers each test writes, recording every
// request as it arrived (method, path and query, headers, body). Real HTTP, nothing of SayBot's inside.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => unknown;

export class FakeEngine {
  readonly seen: Seen[] = [];
  /** Bytes the server wrote into answers (what an endless body reached before the client cut it). */
  written = 0;
  handler: Handler = (_req, res) => void res.writeHead(404).end();
  readonly #server: Server;
  readonly #waiters: Array<() => void> = [];

  private constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const seen: Seen = {
          method: req.method ?? '',
          url: new URL(req.url ?? '/', 'http://127.0.0.1'),
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.seen.push(seen);
        for (const wake of this.#waiters.splice(0)) wake();
        const write = res.write.bind(res);
        res.write = ((chunk: Buffer | string, ...rest: never[]) => {
          this.written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
          return write(chunk, ...rest);
        }) as typeof res.write;
        void this.handler(req, res, seen);
      });
    });
  }

  static async start(): Promise<FakeEngine> {
    const engine = new FakeEngine();
    await new Promise<void>((resolve) => engine.#server.listen(0, '127.0.0.1', resolve));
    return engine;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` requests have arrived in all. */
  async requests(count: number): Promise<void> {
    while (this.seen.length < count) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** A PCM WAV header for `dataBytes` of samples (0: unknown, as a streaming writer puts it). */
export function wavHeader(dataBytes: number, rate = 24_000, channels = 1, bits = 16, format = 1): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(dataBytes === 0 ? 0xffffffff : 36 + dataBytes, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(format, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE((rate * channels * bits) / 8, 28);
  header.writeUInt16LE((channels * bits) / 8, 32);
  header.writeUInt16LE(bits, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataBytes === 0 ? 0xffffffff : dataBytes, 40);
  return header;
}

/** A whole 16-bit mono WAV of `seconds` of a quiet tone. */
export function wav(seconds = 0.2, rate = 24_000): Buffer {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1)
    data.writeInt16LE(Math.round(3000 * Math.sin((2 * Math.PI * 220 * i) / rate)), i * 2);
  return Buffer.concat([wavHeader(data.length, rate), data]);
}

export function sendWav(res: ServerResponse, bytes = wav()): void {
  res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': bytes.length }).end(bytes);
}

export function sendJson(res: ServerResponse, value: unknown, status = 200): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json' }).end(body);
}

/** VOICEVOX's GET /speakers with two speakers (the second with a sing style, which cannot read text). */
export const SPEAKERS = [
  {
    name: '四国めたん',
    speaker_uuid: 'a',
    styles: [
      { name: 'ノーマル', id: 2, type: 'talk' },
      { name: 'あまあま', id: 0 },
    ],
  },
  {
    name: 'ずんだもん',
    speaker_uuid: 'b',
    styles: [
      { name: 'ノーマル', id: 3, type: 'talk' },
      { name: 'ハミング', id: 3001, type: 'sing' },
    ],
  },
];

/** The query VOICEVOX's POST /audio_query answers (trimmed to its scalar fields). */
export const AUDIO_QUERY = {
  accent_phrases: [],
  speedScale: 1,
  pitchScale: 0,
  intonationScale: 1,
  volumeScale: 1,
  prePhonemeLength: 0.1,
  postPhonemeLength: 0.1,
  outputSamplingRate: 24000,
  outputStereo: false,
  kana: '',
};

/** A whole VOICEVOX engine: its speakers, its audio query, its synthesis. */
export const voicevoxHandler =
  (speakers: unknown = SPEAKERS): Handler =>
  (_req, res, seen) => {
    if (seen.url.pathname === '/speakers') return sendJson(res, speakers);
    if (seen.url.pathname === '/audio_query') return sendJson(res, AUDIO_QUERY);
    if (seen.url.pathname === '/synthesis') return sendWav(res);
    res.writeHead(404).end();
  };

/** A whole speech server under /v1: its voice list (null: none, 404), its speech. */
export const speechHandler =
  (voices: unknown = { voices: ['af_heart', 'jf_alpha', 'bm_george'] }): Handler =>
  (_req, res, seen) => {
    if (seen.url.pathname === '/v1/audio/voices' && voices !== null) return sendJson(res, voices);
    if (seen.url.pathname === '/v1/audio/speech') return sendWav(res);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
  };
