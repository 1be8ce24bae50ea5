import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactSecrets } from '../../src/core/log.ts';

const secret = 'sk_live_' + 'Q'.repeat(30);

function capture() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString()));
  return { stream, text: () => chunks.join('') };
}

describe('createLogger', () => {
  it('writes readable lines (time, level, message, fields) when pretty, still without secrets', async () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, pretty: true, secrets: [secret] });
    log.warn({ guildId: '1', code: 'voice.lost' }, `lost with ${secret}`);
    await new Promise((resolve) => setImmediate(resolve));
    const text = out.text();
    expect(() => JSON.parse(text)).toThrow();
    expect(text).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] WARN: lost with /);
    expect(text).toContain('code: "voice.lost"');
    expect(text).not.toContain(secret);
  });

  it('writes one JSON line per event', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream });
    log.info({ guildId: '1' }, 'hello');
    const lines = out.text().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ msg: 'hello', guildId: '1', app: 'saybot' });
  });

  it('removes secrets from messages, fields, nested objects and errors', () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, secrets: [secret] });
    log.info(`url with ${secret}`);
    log.warn({ request: { headers: { authorization: `Bearer ${secret}` } } }, 'request');
    log.error({ err: new Error(`failed for key ${secret}`), nested: [{ deep: secret }] }, 'boom');
    log.info({ token: 'field-named-token-value' }, 'by name');
    const text = out.text();
    expect(text).not.toContain(secret);
    expect(text).not.toContain('field-named-token-value');
    expect(text).toContain('failed for key [redacted]');
    expect(text.split('\n').filter(Boolean)).toHaveLength(4);
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence and ignores too-short values', () => {
    expect(redactSecrets(`${secret}/${secret}`, [secret])).toBe('[redacted]/[redacted]');
    expect(redactSecrets('a b c', ['b'])).toBe('a b c');
  });
});
