// A 429 (issue 94, item 3; bb11; cases from their outside checks): never sent again; the service's own charged nothing
// and is told busy; any other may have passed the request on first, so it is counted and told it may have been
// charged, as a 5xx after the request reached the service is. /usage (server and the member's day) never moves by
// less than the sandbox billed.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { defaultGuilds, runCommand } from '../support/harness.ts';
import { ALICE, BOB } from '../support/world.ts';

const london = defaultGuilds()[1] as ReturnType<typeof defaultGuilds>[0];

/** A tiny proxy in front of the sandbox: answers 429 itself while `refusing` > 0, forwards otherwise. */
let target = '';
let refusing = 0;
let proxyHits = 0;
let proxyRetryAfter: string | undefined;
let proxy: Server;
async function startProxy(): Promise<string> {
  proxy = createServer((req, res) => {
    proxyHits++;
    if (refusing > 0) {
      refusing--;
      req.resume();
      res.writeHead(429, {
        'content-type': 'text/plain',
        ...(proxyRetryAfter === undefined ? {} : { 'retry-after': proxyRetryAfter }),
      });
      res.end('Too Many Requests');
      return;
    }
    const url = new URL(req.url ?? '/', target);
    const out = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (back) => {
      res.writeHead(back.statusCode ?? 502, back.headers);
      back.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

const h = useFileHarness(async () => ({
  env: { VOICE_API_PLAN: 'creator', VOICE_API_BASE_URL: await startProxy() },
}));

let serial = 0;

async function shownNow(): Promise<{ server: number; day: string | undefined }> {
  const { content } = await runCommand(h, { guildId: london.id, userId: BOB, name: 'usage', locale: 'en-US' });
  return {
    server: Number(/This server: ([\d,]+) characters spent/.exec(content)?.[1]?.replace(/,/g, '') ?? 'NaN'),
    day: /You today: ([\d,]+) characters/.exec(content)?.[1] ?? '0',
  };
}
const dayNum = (d: string | undefined) => Number((d ?? '0').replace(/,/g, ''));

async function attempt(name: string, command = 'say', output = 'file', userId = BOB) {
  target = h.sandbox.url;
  const before = {
    requests: h.sandbox.requests.length,
    hits: proxyHits,
    billed: h.sandbox.charactersBilled(),
    shown: await shownNow(),
  };
  const text = `Probe ${name} line ${++serial}.`;
  const { handle, content: first } = await runCommand(h, {
    guildId: london.id,
    userId,
    name: command,
    options: { text, output },
    locale: 'en-US',
  });
  // In voice, the answer that ends it: what it spoke, or why not.
  const last = (r: { kind: string; content?: string | undefined }) =>
    r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued|Making)/.test(r.content);
  const content = output === 'voice' ? ((await handle.waitFor(last, 40_000)).content ?? '') : first;
  const after = await shownNow();
  const r = {
    content,
    characters: text.length,
    sandboxRequests: h.sandbox.requests.slice(before.requests).map((x) => x.status),
    proxyHits: proxyHits - before.hits,
    billed: h.sandbox.charactersBilled() - before.billed,
    server: after.server - before.shown.server,
    day: dayNum(after.day) - dayNum(before.shown.day),
  };
  return r;
}

beforeEach(() => {
  h.sandbox.clearFaults();
  h.sandbox.setKeyUsed(h.apiKey, 0);
  refusing = 0;
  proxyRetryAfter = undefined;
});

const busy = t('en-US', 'error.api.rateLimited');
const maybeCharged = t('en-US', 'error.api.refusedOnTheWay.maybeCharged', { status: 429 });
const gw = (extra: Record<string, string>, times = 1) =>
  ({
    kind: 'response',
    status: 429,
    contentType: 'text/plain',
    body: 'Too Many Requests',
    headers: extra,
    times,
  }) as const;

describe('a 429, whoever sends it', () => {
  it('sandbox 429 without ID, Retry-After 3600 (big): not waited on, counted, told it may have been charged', async () => {
    h.sandbox.injectFault(gw({ 'Retry-After': '3600' }, Infinity));
    const r = await attempt('noid-big');
    expect(r.proxyHits).toBeLessThanOrEqual(2);
    expect([r.server, r.day, r.billed]).toEqual([r.characters, r.characters, 0]);
    expect(r.content).toBe(maybeCharged);
  });
  it('sandbox 429 without ID, Retry-After 0 lasting: at most one retry, counted, told it may have been charged', async () => {
    h.sandbox.injectFault(gw({ 'Retry-After': '0' }, Infinity));
    const r = await attempt('noid-small-lasting');
    expect(r.proxyHits).toBeLessThanOrEqual(2);
    expect([r.server, r.day, r.billed]).toEqual([r.characters, r.characters, 0]);
    expect(r.content).toBe(maybeCharged);
  });
  it('sandbox 429 with its request ID, Retry-After 1 lasting: at most one retry, counted, told it may have been charged', async () => {
    h.sandbox.injectFault(gw({ 'Retry-After': '1', 'X-Request-Id': 'req_probe' }, Infinity));
    const r = await attempt('id-small-lasting');
    expect(r.proxyHits).toBeLessThanOrEqual(2);
    expect([r.server, r.day, r.billed]).toEqual([r.characters, r.characters, 0]);
    expect(r.content).toBe(maybeCharged);
  });
  it('sandbox 429 with its request ID, no Retry-After: counted, told it may have been charged', async () => {
    h.sandbox.injectFault(gw({ 'X-Request-Id': 'req_probe2' }, Infinity));
    const r = await attempt('id-none-lasting');
    expect(r.proxyHits).toBeLessThanOrEqual(2);
    expect([r.server, r.day, r.billed]).toEqual([r.characters, r.characters, 0]);
    expect(r.content).toBe(maybeCharged);
  });
  // The service's own 429 while its own figure (X-RateLimit-Remaining) says 300,000 left: its figure, not "used up".
  it("the service's own 429 while its figure says 300,000 left: nothing counted, never told the month is used up", async () => {
    h.sandbox.injectFault({ kind: 'service-error', status: 429, times: Infinity });
    const r = await attempt('service-own-429');
    expect(r.proxyHits).toBeLessThanOrEqual(2);
    expect([r.server, r.day, r.billed]).toEqual([0, 0, 0]);
    expect(r.content).not.toMatch(/used up/);
    expect(r.content).toBe(busy);
  });
  it('a real proxy in front answers 429 (no Retry-After), lasting: counted, told it may have been charged, at most one retry', async () => {
    refusing = 100;
    const r = await attempt('proxy-lasting');
    expect(r.proxyHits).toBeLessThanOrEqual(2);
    expect(r.sandboxRequests).toEqual([]);
    expect([r.server, r.day, r.billed]).toEqual([r.characters, r.characters, 0]);
    expect(r.content).toBe(maybeCharged);
  });
  // Not sent again after its wait (bb10): a proxy's 429 is no proof the service never had the request, and a second
  // request after a first the service billed is paid twice. Nor booked as nothing charged (bb11), for the same reason.
  it('a real proxy in front answers 429 once with Retry-After 1: never sent again, counted, told it may have been charged', async () => {
    refusing = 1;
    proxyRetryAfter = '1';
    const r = await attempt('proxy-once');
    expect(r.proxyHits).toBe(1);
    expect(r.sandboxRequests).toEqual([]);
    expect([r.server, r.day, r.billed]).toEqual([r.characters, r.characters, 0]);
    expect(r.content).toBe(maybeCharged);
  });
  it('a real proxy answers 429 with Retry-After 86400, lasting: told promptly it may have been charged, counted', async () => {
    refusing = 100;
    proxyRetryAfter = '86400';
    const r = await attempt('proxy-big');
    expect(r.proxyHits).toBeLessThanOrEqual(2);
    expect([r.server, r.day, r.billed]).toEqual([r.characters, r.characters, 0]);
    expect(r.content).toBe(maybeCharged);
  });
  it('/emote: sandbox 429 without ID: counted, told it may have been charged', async () => {
    h.sandbox.injectFault(gw({}, Infinity));
    const r = await attempt('emote-noid', 'emote');
    expect(r.proxyHits).toBeLessThanOrEqual(2);
    expect([r.server, r.day, r.billed]).toEqual([r.characters, r.characters, 0]);
    expect(r.content).toBe(maybeCharged);
  });
  // bb11: nothing on a 429 proves it the service's own; a proxy that lets the request through (billed), then answers
  // 429 with the service's headers forwarded and a JSON error, looks exactly like it. Sent again, paid twice.
  // bb12: booked as nothing charged, it left the books under the bill; its forwarded figures went up by the line since
  // the bot last heard them (a line spoken first), so it is counted and told it may have been charged.
  it.each(['file', 'voice'])(
    "a 429 after the charge from a proxy forwarding the service's headers, with a wait (%s): sent once, billed once, counted, told it may have been charged",
    async (output) => {
      await attempt(`heard-first-${output}`);
      h.sandbox.injectFault({
        kind: 'gateway-after-charge',
        status: 429,
        body: '{"error":"Too Many Requests"}',
        contentType: 'application/json',
        serviceHeaders: true,
        headers: { 'Retry-After': '1' },
        endpoint: 'tts',
      });
      const r = await attempt(`forwarded-${output}`, 'say', output, output === 'voice' ? ALICE : BOB);
      expect(r.sandboxRequests).toEqual([429]);
      expect(r.billed).toBe(r.characters);
      expect(r.server).toBe(r.billed);
      expect(r.content).toBe(maybeCharged);
    },
  );
  // bb11: a 429 not the service's own after the charge was booked as nothing charged (billed 48, /usage 0).
  it.each(['file', 'voice'])(
    "a stranger's 429 after the charge (none of the service's headers) (%s): sent once, on the books as billed, told it may have been charged",
    async (output) => {
      h.sandbox.injectFault({ kind: 'gateway-after-charge', status: 429, endpoint: 'tts' });
      const r = await attempt(`stranger-${output}`, 'say', output, output === 'voice' ? ALICE : BOB);
      expect(r.sandboxRequests).toEqual([429]);
      expect(r.billed).toBe(r.characters);
      expect(r.server).toBe(r.billed);
      expect(r.content).toBe(maybeCharged);
    },
  );
  it('a 502 after the charge (gateway-after-charge): counted, as billed', async () => {
    h.sandbox.injectFault({ kind: 'gateway-after-charge', status: 502, endpoint: 'tts' });
    const r = await attempt('gac-502');
    expect(r.billed).toBeGreaterThan(0);
    expect(r.server).toBe(r.billed);
    expect(r.day).toBe(r.billed);
  });
  it('a 500 of the service (nothing billed): not counted', async () => {
    h.sandbox.injectFault({ kind: 'service-error', status: 500, times: Infinity });
    const r = await attempt('svc-500');
    expect([r.server, r.day, r.billed]).toEqual([0, 0, 0]);
  });
});
