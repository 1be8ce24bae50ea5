// A /stop that comes while the first part's request is still opening its connection to the Voice API: the connection
// opens after the stop and undici sends nothing on it (no header, no byte of the request: the service never had it
// and billed nothing), so nothing is shown as spent (src/core/api/client.ts); found by an outside check. The Voice
// API is reached through a relay in a process of its own that the test stops accepting (its accept queue full, so
// SayBot's connect waits, as a connect or TLS handshake to a far service does) and lets go on: the test acts at each
// instant by an event (undici's diagnostics channels), not a timer.
import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { spentShown as spentShownTo, answerOf } from '../support/books-shown.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand } from '../support/harness.ts';
import { oneRoomGuild } from '../support/world.ts';
import { booksSettled } from '../support/books-settled.ts';
import { heldRelay, type HeldRelay } from '../support/held-relay.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { splitText } from '../../src/core/sourcing/part-request.ts';

const GUILD = '200000000000000057';
const TEXT = '210000000000000057';
const VOICE = '220000000000000057';
const SPEAKER = '300000000000000571';
const VOICE_ID = 'voice-b-en-f-01';
const MAX_CHARS = 40;

let relay: HeldRelay | undefined;
let relayPort = 0;
afterAll(() => relay?.close());

const h = useFileHarness(async () => {
  relay = await heldRelay();
  relayPort = relay.port;
  return {
    guilds: [
      oneRoomGuild(GUILD, 'Connecting', { text: TEXT, voice: VOICE }, [
        { id: SPEAKER, username: 'speaker', voiceChannelId: VOICE, locale: 'en-US' },
      ]),
    ],
    config: { maxCharsPerRequest: MAX_CHARS, voiceIdleTimeoutMs: 60_000 },
    env: { VOICE_API_BASE_URL: `http://127.0.0.1:${relayPort}` },
    // The connect waits as long as the test needs (a bound, not a figure).
    clientTimeouts: { connectMs: 60_000 },
  };
});

/** What undici did towards the Voice API's port: connects begun and opened, headers sent. */
const wire = { beforeConnect: 0, connected: 0, sendHeaders: 0 };
const onBeforeConnect = (message: unknown) => {
  if (Number((message as { connectParams: { port: string } }).connectParams.port) === relayPort)
    wire.beforeConnect += 1;
};
const onConnected = (message: unknown) => {
  if (Number((message as { connectParams: { port: string } }).connectParams.port) === relayPort) wire.connected += 1;
};
const onSendHeaders = (message: unknown) => {
  if ((message as { socket: Socket }).socket.remotePort === relayPort) wire.sendHeaders += 1;
};
diagnostics.subscribe('undici:client:beforeConnect', onBeforeConnect);
diagnostics.subscribe('undici:client:connected', onConnected);
diagnostics.subscribe('undici:client:sendHeaders', onSendHeaders);
afterAll(() => {
  diagnostics.unsubscribe('undici:client:beforeConnect', onBeforeConnect);
  diagnostics.unsubscribe('undici:client:connected', onConnected);
  diagnostics.unsubscribe('undici:client:sendHeaders', onSendHeaders);
});

describe('while SayBot is joining voice, the first part still opening its connection', () => {
  it('/stop: nothing left SayBot, so nothing is shown as spent', async () => {
    const text =
      'First part 1 is spoken right here. Second part 1 follows it closely. Third part 1 comes after that. Fourth part 1 ends the order.';
    const parts = splitText(text, MAX_CHARS);
    expect(parts.length).toBe(4);
    relay?.pointAt(Number(new URL(h.sandbox.url).port));
    const letJoin = h.discord.holdVoiceRequests(GUILD);
    const spentBefore = await spentShownTo(h, GUILD, SPEAKER);
    const billedBefore = h.sandbox.charactersBilled();
    await relay?.hold();
    const say = await h.discord.command({
      guildId: GUILD,
      userId: SPEAKER,
      name: 'say',
      options: [
        { name: 'text', value: text },
        { name: 'voice', value: VOICE_ID },
      ],
    });
    await expect.poll(() => say.responses.length).toBeGreaterThan(0);
    await expect.poll(() => h.discord.heldVoiceRequestCount(GUILD)).toBeGreaterThan(0);
    // The first part's request is written ahead and its connection is being opened: nothing has left yet.
    await expect.poll(() => wire.beforeConnect).toBeGreaterThan(0);
    expect(wire.connected).toBe(0);
    const stop = await runCommand(h, { guildId: GUILD, userId: SPEAKER, name: 'stop' });
    expect(stop.content).toBe(t('en-US', 'stop.own', { count: parts.length - 1 }));
    // The connection opens after the stop (the relay accepts again): undici sends nothing on it, as it was let go of.
    await relay?.letGo();
    await expect.poll(() => wire.connected).toBeGreaterThan(0);
    letJoin();
    const answer = await answerOf(say);
    console.log(`[proof] the member's answer: ${answer}`);
    expect(answer).toMatch(/^Stopped/);
    await booksSettled(h);
    // Premise: no header was sent; the service had no request for it and billed nothing.
    expect(wire.sendHeaders).toBe(0);
    expect(h.sandbox.requests.filter((r) => r.text !== undefined && parts.includes(r.text))).toEqual([]);
    expect(h.sandbox.charactersBilled() - billedBefore).toBe(0);
    const unconfirmed = h
      .logs()
      .split('\n')
      .filter((line) => line.includes('"api-unconfirmed"'));
    console.log(`[proof] api-unconfirmed lines: ${unconfirmed.length}; ${unconfirmed[0]?.slice(0, 500) ?? ''}`);
    // The owners' rule: nothing paid or shown for a request that never left SayBot.
    expect((await spentShownTo(h, GUILD, SPEAKER)) - spentBefore).toBe(0);
  });
});
