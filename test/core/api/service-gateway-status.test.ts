// A 502 or 504 may be the service's own answer (its JSON error with its usual headers): told in the service's words,
// and charged by the rule that already holds (paid-call.ts `chargeOf`: a 502/504 never proves nothing was charged).
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../../src/features/speaking/failure-words.ts';
import { t } from '../../../src/features/speaking/strings.ts';
import { judged, rejectionOf, requestsTo, useSandbox } from './helpers.ts';

const api = useSandbox();

describe("a 504 whose body is the service's own error", () => {
  it("is told with the service's words, maybe charged, sent once", async () => {
    api.sandbox.injectFault({
      kind: 'service-error',
      status: 504,
      message: 'upstream synthesis timed out after 30 s',
      endpoint: 'tts',
    });
    const error = await rejectionOf(
      judged(api.client.send({ endpoint: 'tts', body: { text: 'A 504 of its own.', voice_id: 'voice-b-en-f-01' } })),
    );
    expect(error).toMatchObject({ status: 504, charge: 'maybe-charged', fromService: true });
    expect(requestsTo(api.sandbox, 'tts')).toHaveLength(1);
    const { message } = describeFailure(error);
    expect(message.key).toBe('error.api.maybeCharged.service');
    for (const locale of ['en-US', 'ja', 'ko']) {
      const said = t(locale, message.key, message.params);
      expect(said).toContain('upstream synthesis timed out after 30 s');
      expect(said).toContain('504');
    }
  });

  it("a gateway's 504 (none of the service's headers) is still told as not the service's own", async () => {
    api.sandbox.injectFault({
      kind: 'response',
      status: 504,
      body: '{"message":"Endpoint request timed out"}',
      endpoint: 'tts',
    });
    const error = await rejectionOf(
      judged(api.client.send({ endpoint: 'tts', body: { text: 'A gateway 504.', voice_id: 'voice-b-en-f-01' } })),
    );
    expect(error).toMatchObject({ status: 504, charge: 'maybe-charged', fromService: false });
    expect(describeFailure(error).message.key).toBe('error.api.maybeCharged.gateway');
  });
});
