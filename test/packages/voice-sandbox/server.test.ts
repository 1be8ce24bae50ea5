// The HTTP surface around the endpoints: unknown paths and methods, oversized bodies, internal errors, IDs.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '@saybot/voice-sandbox';
import { errorOf, hear, tts, until, useStartedSandbox } from './helpers.ts';

const rig = useStartedSandbox();

describe('the server', () => {
  it('listens on 127.0.0.1 at a free port by default', () => {
    expect(rig.sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(rig.sandbox.url.endsWith(':0')).toBe(false);
  });

  it('answers 404 for unknown paths', async () => {
    for (const path of ['/', '/v1/tts/', '/v2/tts', '/v1/voices']) {
      const response = await fetch(`${rig.sandbox.url}${path}`, { method: 'POST' });
      expect(await errorOf(response), path).toMatchObject({ status: 404, code: 'not_found' });
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    }
  });

  it('answers 405 with Allow: POST for other methods', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await fetch(`${rig.sandbox.url}/v1/tts`, {
        method,
        headers: { Authorization: `Bearer ${rig.sandbox.testKey}` },
      });
      expect(response.headers.get('allow')).toBe('POST');
      expect(await errorOf(response)).toMatchObject({ status: 405, code: 'method_not_allowed' });
    }
  });

  it('answers 413 for a JSON body over 1 MiB', async () => {
    const response = await tts(rig.sandbox, { text: 'x'.repeat(1024 * 1024), voice_id: 'voice-b-ko-f-01' });
    expect(await errorOf(response)).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('gives every request its own X-Request-Id, matching its record', async () => {
    const responses = await Promise.all(
      [1, 2, 3].map(() => tts(rig.sandbox, { text: 'hi', voice_id: 'voice-b-ko-f-01' })),
    );
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    expect(new Set(ids).size).toBe(3);
    expect(rig.sandbox.requests.map((r) => r.id).sort()).toEqual([...ids].sort());
  });

  it('answers 500 for an internal error and keeps serving', async () => {
    let fail = false;
    const fragile = await startSandbox({
      now: () => {
        if (fail) throw new Error('clock broke');
        return new Date();
      },
    });
    try {
      fail = true;
      expect(
        await errorOf(await tts(fragile, { text: 'hi', voice_id: 'voice-b-ko-f-01' }, { key: fragile.testKey })),
      ).toMatchObject({
        status: 500,
        code: 'internal_error',
      });
      fail = false;
      await hear(await tts(fragile, { text: 'hi', voice_id: 'voice-b-ko-f-01' }));
      expect(fragile.charactersBilled()).toBe(2);
    } finally {
      await fragile.close();
    }
  });

  it('shrugs off a client that goes away mid-upload', async () => {
    const { port } = new URL(rig.sandbox.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /v1/tts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${rig.sandbox.testKey}\r\nContent-Length: 1000\r\n\r\n{"text":`,
    );
    await until(() => rig.sandbox.requests.length === 1);
    socket.destroy();
    await until(() => rig.sandbox.requests[0]?.outcome === 'client-aborted');
    expect(rig.sandbox.requests[0]?.status).toBeUndefined();
    await hear(await tts(rig.sandbox, { text: 'still here', voice_id: 'voice-b-ko-f-01' }));
  });

  it('refuses options it cannot honour', async () => {
    await expect(startSandbox({ sampleRate: 96_000 })).rejects.toThrow(/sampleRate/);
    await expect(startSandbox({ port: 70_000 })).rejects.toThrow();
    await expect(startSandbox({ mp3Kbps: 32 as 64 })).rejects.toThrow(/mp3Kbps/);
  });

  it('closes idempotently, and a closed sandbox refuses connections', async () => {
    const own = await startSandbox();
    await Promise.all([own.close(), own.close()]);
    await expect(tts(own, { text: 'hi', voice_id: 'voice-b-ko-f-01' })).rejects.toThrow(TypeError);
  });
});
