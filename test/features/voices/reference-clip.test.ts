import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReferenceClip, downloadClip } from '../../../src/features/voices/reference-clip.ts';

import { fixture } from '../../core/audio/fixtures.ts';
import { refusal } from '../../core/interactions/refusal.ts';

describe('checkReferenceClip', () => {
  it.each([
    ['tone-220hz-5s-48k.wav', 'wav', 5],
    ['tone-330hz-5s-vbr.mp3', 'mp3', 5],
    ['speech-en.m4a', 'm4a', 8.66],
    ['speech-ko-44k-stereo.mp3', 'mp3', 11.36],
  ] as const)('accepts %s as %s of %s s', async (name, format, seconds) => {
    const clip = await checkReferenceClip(fixture(name));
    expect(clip.format).toBe(format);
    expect(clip.durationSeconds).toBeCloseTo(seconds, 1);
  });

  it.each([
    ['too-short-2s.wav', 'The clip lasts 2.00 s; it must last 3 to 60 seconds.'],
    ['too-short-2.9s.m4a', 'The clip lasts 2.90 s; it must last 3 to 60 seconds.'],
    ['too-long-61s.mp3', 'The clip lasts 61.00 s; it must last 3 to 60 seconds.'],
    ['silent-5s.wav', 'The clip is silent (-∞ dBFS). Attach a recording of the person speaking.'],
    [
      'ogg-renamed-as.wav',
      'The clip is OGG, not WAV, MP3 or M4A (whatever its name says). Please attach one of those.',
    ],
    [
      'not-allowed-ogg-5s.ogg',
      'The clip is OGG, not WAV, MP3 or M4A (whatever its name says). Please attach one of those.',
    ],
    ['truncated.mp3', 'The clip is damaged or cut short. Please export it again and attach the new file.'],
  ])('refuses %s, stating what it found', async (name, message) => {
    expect(await refusal(checkReferenceClip(fixture(name)))).toBe(message);
  });

  it('refuses bytes that are not audio', async () => {
    expect(await refusal(checkReferenceClip(Buffer.from('{"not":"audio"}')))).toMatch(
      /^The clip is not audio, not WAV/,
    );
  });
});

describe('downloadClip', () => {
  let server: Server;
  let host: string;
  const wav = fixture('tone-220hz-5s-48k.wav');

  beforeAll(async () => {
    const body = wav;
    server = createServer((req, res) => {
      if (req.url === '/clip.wav') res.end(body);
      else if (req.url === '/unsized.wav') {
        // Chunked: no Content-Length, so only the bytes counted as they arrive tell the size.
        res.write(body.subarray(0, 1000));
        res.end(body.subarray(1000));
      } else if (req.url === '/stall')
        res.writeHead(200).write(body.subarray(0, 100)); // then nothing more
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  // A download's deadline covers the whole of it: 500 ms for the one that stalls, where the deadline is the point; the
  // others have a minute, as a busy host may take more than 500 ms to serve and read half a megabyte.
  const limits = (timeoutMs = 60_000) => ({ allowedHosts: [host], maxBytes: 1_000_000, timeoutMs });

  it('downloads from an allowed host', async () => {
    expect(Buffer.compare(await downloadClip(`http://${host}/clip.wav`, undefined, limits()), await wav)).toBe(0);
  });

  it('refuses any other host before connecting', async () => {
    expect(await refusal(downloadClip('http://169.254.169.254/latest', undefined, limits()))).toBe(
      'Attach the clip to the command itself; I only download attachments from Discord (not from 169.254.169.254).',
    );
  });

  it('refuses a clip over the size cap, declared, announced (Content-Length) or counted', async () => {
    const small = { ...limits(), maxBytes: 100_000 };
    const refused = 'The clip is 0.5 MB; the limit is 0.1 MB. Attach a shorter clip (3 to 60 seconds).';
    expect(await refusal(downloadClip(`http://${host}/clip.wav`, 480_078, small))).toBe(refused);
    expect(await refusal(downloadClip(`http://${host}/clip.wav`, undefined, small))).toBe(refused);
    expect(await refusal(downloadClip(`http://${host}/unsized.wav`, undefined, small))).toMatch(
      /^The clip is >0\.1 MB; the limit is 0\.1 MB/,
    );
    // Within the cap without a length announced, the buffer grows to hold it all.
    expect((await downloadClip(`http://${host}/unsized.wav`, undefined, limits())).length).toBe(480_078);
  });

  it('gives up on a download that stalls, and on a missing file', async () => {
    expect(await refusal(downloadClip(`http://${host}/stall`, undefined, limits(500)))).toBe(
      'I could not download the clip (timed out). Please attach it again.',
    );
    expect(await refusal(downloadClip(`http://${host}/gone`, undefined, limits()))).toBe(
      'I could not download the clip (HTTP 404). Please attach it again.',
    );
  });
});
