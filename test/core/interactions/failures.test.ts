import { describe, expect, it } from 'vitest';
import { ClipError } from '../../../src/core/audio/errors.ts';
import { describeFailure } from '../../../src/core/interactions/failures.ts';
import { VoiceMessageBuilder, VoiceMessageError } from '../../../src/core/voice-message/render.ts';

describe('describeFailure', () => {
  it.each([
    ['no-audio', new VoiceMessageError('no-audio', 'nothing audible')],
    ['bad-packet', new VoiceMessageError('bad-packet', 'Opus packet 1 does not decode')],
  ] as const)(
    "a voice message the service audio cannot make (%s) is the service's fault, said as such, not an internal error",
    (code, error) => {
      expect(describeFailure(error)).toEqual({
        code: `voice-message-${code}`,
        message: { key: 'error.api.unexpected' },
        level: 'warn',
      });
    },
  );

  it('an empty voice message, as the renderer raises it, gets the same words as broken audio from the service', async () => {
    const error: unknown = await new VoiceMessageBuilder().finish().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VoiceMessageError);
    expect(describeFailure(error).message).toEqual(describeFailure(new ClipError('corrupt', 'broken')).message);
  });

  it('an error nobody names is internal, logged as an error', () => {
    expect(describeFailure(new Error('boom'))).toMatchObject({ code: 'internal', level: 'error' });
  });
});
