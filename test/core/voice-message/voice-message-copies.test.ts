// A voice message's file is written off the main thread: its Ogg pages and their CRCs (work the size of the file)
// in the audio worker, the packets moved there in blocks and the file moved back, no copy of its size on the main
// thread (test/support/main-thread-copies.ts). The writing is audio work of the right class: a long message's is
// long work, in its member's ration, as a large file's join is.
import opus from '@discordjs/opus';
import { describe, expect, it } from 'vitest';
import { ENCODER_PRE_SKIP, writeOggOpus } from '../../../src/core/audio/codecs/ogg-opus-writer.ts';
import { MAX_LONG_JOBS_PER_MEMBER } from '../../../src/core/audio/jobs/audio-thread/audio-thread.ts';
import { SHORT_WORK_BYTES } from '../../../src/core/audio/workers/job-thread.ts';
import { renderVoiceMessage, VoiceMessageBuilder } from '../../../src/core/voice-message/render.ts';
import { encodeMonoOpus } from '../../support/mono-opus.ts';
import { mainThreadCopies } from '../../support/main-thread-copies.ts';
import { toneSamples } from '@saybot/voice-sandbox/synth.ts';

const RATE = 48000;

/** One second of stereo noise at 510 kb/s, constant bitrate: 50 packets of 1,275 bytes. */
function loudSecond(): Buffer[] {
  const encoder = new opus.OpusEncoder(RATE, 2);
  encoder.setBitrate(510_000);
  encoder.applyEncoderCTL(4006, 0); // OPUS_SET_VBR 0
  let seed = 7;
  const noise = Int16Array.from({ length: 2 * RATE }, () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed % 60000) - 30000;
  });
  const packets: Buffer[] = [];
  for (let at = 0; at < noise.length; at += 1920)
    packets.push(encoder.encode(Buffer.from(noise.buffer, at * 2, 1920 * 2)));
  return packets;
}

describe('a voice message on the main thread', () => {
  it('is written without one copy of its file: the same bytes as the writer makes, and the packets left as they were', async () => {
    const { packets } = encodeMonoOpus(toneSamples({ pitchHz: 220, seconds: 60, amplitude: 0.5, sampleRate: RATE }));
    // The message's length is its packets' samples after the pre-skip (the last frame's padding included).
    const sampleCount = packets.length * 960 - ENCODER_PRE_SKIP;
    const expected = writeOggOpus(packets, { channels: 1, preSkip: ENCODER_PRE_SKIP, sampleCount, packetsPerPage: 50 });
    expect(expected.length).toBeGreaterThan(200_000);
    const before = packets.map((p) => Buffer.from(p));
    const { result, copies } = await mainThreadCopies(() =>
      renderVoiceMessage([packets], { owner: { guild: 'G1', member: 'M1' } }),
    );
    expect(copies).toEqual([]);
    expect(result.ogg.equals(expected)).toBe(true);
    expect(packets).toEqual(before);
  });

  it('sees the copy it looks for: the Ogg writer run on the main thread', async () => {
    const { packets } = encodeMonoOpus(toneSamples({ pitchHz: 220, seconds: 5, amplitude: 0.5, sampleRate: RATE }));
    const { copies } = await mainThreadCopies(() => Promise.resolve(writeOggOpus(packets)));
    expect(copies.map((copy) => copy.how)).toContain('Buffer.concat');
  });
});

describe("a voice message's writing in the audio worker", () => {
  const second = loudSecond();
  const build = (seconds: number) => {
    const builder = new VoiceMessageBuilder();
    for (let s = 0; s < seconds; s++) for (const packet of second) builder.add(packet);
    return builder;
  };

  it("is long work past SHORT_WORK_BYTES of packets: a member's second long message at once is refused", async () => {
    const seconds = Math.ceil(SHORT_WORK_BYTES / (50 * 1275)) + 1;
    const owner = { guild: 'G-long', member: 'M-long' };
    const builders = Array.from({ length: MAX_LONG_JOBS_PER_MEMBER + 1 }, () => build(seconds));
    const results = await Promise.allSettled(builders.map((b) => b.finish(owner)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(MAX_LONG_JOBS_PER_MEMBER);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({
      reason: { name: 'AudioBusyError', reason: 'member-busy' },
    });
  });

  it("is short work below it: the same member's messages at once are all written", async () => {
    const owner = { guild: 'G-short', member: 'M-short' };
    const builders = Array.from({ length: MAX_LONG_JOBS_PER_MEMBER + 1 }, () => build(3));
    const messages = await Promise.all(builders.map((b) => b.finish(owner)));
    expect(messages.every((m) => m.durationSecs > 2.9)).toBe(true);
  });
});
