import { describe, expect, it } from 'vitest';
import { writeOggOpus } from '../../../src/core/audio/codecs/ogg-opus-writer.ts';
import { encodeMonoOpus } from '../../support/mono-opus.ts';
import { waveformValues } from '../../support/waveform.ts';
import { toneSamples } from '@saybot/voice-sandbox/synth.ts';
import type { UploadedFile } from '@saybot/local-discord/body.ts';
import { checkMessageBody } from '@saybot/local-discord/messages.ts';
import { PermissionFlagsBits } from 'discord.js';
import { DEFAULT_PERMISSIONS } from '@saybot/local-discord/state.ts';
import { checkVoiceMessagePermission, IS_VOICE_MESSAGE } from '@saybot/local-discord/voice-message.ts';

const pcm = toneSamples({ pitchHz: 220, seconds: 0.5, amplitude: 0.5, sampleRate: 48000 });
const encoded = encodeMonoOpus(pcm);
const file = writeOggOpus(encoded.packets, { sampleCount: encoded.sampleCount });
const durationSeconds = encoded.sampleCount / 48000;
const waveform = Buffer.from(waveformValues(pcm, 48000)).toString('base64');
const ogg: UploadedFile = { index: 0, name: 'voice-message.ogg', contentType: 'audio/ogg', data: file };

function flipByte(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = (copy[at] ?? 0) ^ 0xff;
  return copy;
}

function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    flags: IS_VOICE_MESSAGE,
    attachments: [{ id: 0, filename: 'voice-message.ogg', duration_secs: durationSeconds, waveform }],
    ...overrides,
  };
}

describe('the local Discord checks voice messages (flags 8192)', () => {
  it('accepts a valid voice message written by the Ogg Opus writer', () => {
    expect(checkMessageBody(body(), [ogg], true)).toBeUndefined();
  });

  const refusals: [string, Record<string, unknown>, UploadedFile[], number][] = [
    ['content', body({ content: 'hi' }), [ogg], 50159],
    ['an embed', body({ embeds: [{ title: 'x' }] }), [ogg], 50159],
    ['two attachments', body(), [ogg, { ...ogg, index: 1 }], 50160],
    ['a non-audio attachment', body(), [{ ...ogg, name: 'a.png', contentType: 'image/png' }], 50160],
    ['no duration', body({ attachments: [{ id: 0, waveform }] }), [ogg], 50161],
    ['a zero duration', body({ attachments: [{ id: 0, duration_secs: 0, waveform }] }), [ogg], 50161],
    ['no waveform', body({ attachments: [{ id: 0, duration_secs: 1 }] }), [ogg], 50161],
    [
      'a waveform over 256 bytes',
      body({ attachments: [{ id: 0, duration_secs: 1, waveform: Buffer.alloc(257, 1).toString('base64') }] }),
      [ogg],
      50161,
    ],
    [
      'a waveform that is not base64',
      body({ attachments: [{ id: 0, duration_secs: 1, waveform: 'not base64!' }] }),
      [ogg],
      50161,
    ],
    ['a file with a bad CRC', body(), [{ ...ogg, data: flipByte(file, 100) }], 50035],
    ['a WAV named .ogg', body(), [{ ...ogg, data: Buffer.from('RIFF....WAVEfmt ') }], 50035],
  ];
  it.each(refusals)('refuses a voice message with %s', (_name, data, files, code) => {
    expect(checkMessageBody(data, files, true)?.body.code).toBe(code);
  });

  it('refuses editing a message into a voice message', () => {
    expect(checkMessageBody(body(), [], false)?.body.code).toBe(50162);
  });

  it('leaves ordinary messages alone', () => {
    expect(checkMessageBody({ content: 'hello' }, [], true)).toBeUndefined();
  });

  it('refuses a voice message from a sender without Send Voice Messages with 403 50173, and nothing else', () => {
    expect(checkVoiceMessagePermission(body(), DEFAULT_PERMISSIONS)).toMatchObject({
      status: 403,
      body: { code: 50173 },
    });
    expect(
      checkVoiceMessagePermission(body(), DEFAULT_PERMISSIONS | PermissionFlagsBits.SendVoiceMessages),
    ).toBeUndefined();
    expect(checkVoiceMessagePermission({ content: 'hello' }, DEFAULT_PERMISSIONS)).toBeUndefined();
  });
});
