// The servers process: the fake Discord and the sandbox Voice API on 127.0.0.1, driven over IPC by bench/run.ts.
// They run here, apart from the bot, so that the fake's own work (decrypting and decoding every packet, which
// grows with the number of streams) is not billed to the bot, and cannot delay the bot's event loop. Figure 25 also
// starts the engine doubles here (startEngines), as an owner's engines run apart from the bot.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { startSandbox, type Sandbox } from '@saybot/voice-sandbox';
import { APP_ID, FakeDiscord, fakeToken } from '@saybot/local-discord';
import { UDP_RECEIVE_THREAD_NAME } from '@saybot/local-discord/voice-udp.ts';
import { GatewayIntent } from '@saybot/local-discord/state.ts';
import { startSpeechServerDouble, startVoicevoxDouble, type EngineDouble } from '@saybot/engine-doubles';
import type { InteractionHandle } from '@saybot/local-discord/types.ts';
import { guildSpecs, heardInFull, seatsGuildSpec } from './guilds.ts';
import type { Calls, CommandSpec, Dispatched, Op, ReplyMessage, RequestMessage } from './protocol.ts';
import { UsageMeter } from './usage.ts';
import { flood } from './flood-drive.ts';
import { leaveSlowHost } from './another-machine.ts';

interface Running {
  discord: FakeDiscord;
  sandbox: Sandbox;
}

let running: Running | undefined;
/** Figure 25's engine doubles, once started. */
let engines: EngineDouble[] = [];
let daveOff = false;
const handles = new Map<string, InteractionHandle>();
const meter = new UsageMeter();

function need(): Running {
  if (!running) throw new Error('servers not started');
  return running;
}

function kept(handle: InteractionHandle): Dispatched {
  handles.set(handle.id, handle);
  return { interactionId: handle.id, dispatchedAtMs: handle.dispatchedAtMs };
}

function handleOf(interactionId: string): InteractionHandle {
  const handle = handles.get(interactionId);
  if (!handle) throw new Error(`unknown interaction ${interactionId}`);
  return handle;
}

async function command(spec: CommandSpec): Promise<Dispatched> {
  const options = Object.entries(spec.options ?? {}).map(([name, value]) => ({ name, value }));
  const handle = await need().discord.command({
    guildId: spec.guildId,
    userId: spec.userId,
    name: spec.name,
    options: spec.subcommand === undefined ? options : [{ name: spec.subcommand, type: 1, options }],
  });
  return kept(handle);
}

type Handlers = { [K in Op]: (params: Calls[K]['params']) => Promise<Calls[K]['result']> | Calls[K]['result'] };

const handlers: Handlers = {
  async start({ guilds, dave, delays, floodMembers, seats }) {
    const token = fakeToken();
    const specs = [...guildSpecs(guilds, floodMembers), ...(seats ? [seatsGuildSpec(seats.channels)] : [])];
    daveOff = dave?.mode === 'off';
    const discord = await FakeDiscord.start({
      token,
      applicationId: APP_ID,
      guilds: specs,
      log: () => undefined,
      ...delays,
      hearInFull: heardInFull,
      // Arrivals stamped in a thread of the socket's own, off this process's busy loop (decrypting, decoding, DAVE).
      udpReceiveThread: true,
      // As the owners' guide (docs/guide-owners.md) asks of a real application (auto-read): without it the bot is refused (4014) and logs in again.
      allowedPrivilegedIntents: GatewayIntent.MessageContent,
      ...(dave ? { dave: dave.mode, daveHandshakeDelayMs: dave.handshakeDelayMs } : {}),
    });
    if (STAMPS_FIRST) stampsFirst();
    const sandbox = await startSandbox();
    running = { discord, sandbox };
    // Helper bots, each in every guild, as an owner invites them where the main bot serves.
    const helperTokens = Array.from({ length: seats?.helpers ?? 0 }, (_, i) => {
      const helper = discord.addBotApplication({ username: `SayBot ${i + 2}` });
      for (const guild of specs) discord.inviteBot(guild.id, helper.userId);
      return helper.token;
    });
    return {
      restUrl: discord.restUrl,
      sandboxUrl: sandbox.url,
      apiKey: sandbox.testKey,
      token,
      applicationId: APP_ID,
      caCertificatePem: discord.caCertificatePem,
      ...(helperTokens.length > 0 ? { helperTokens } : {}),
    };
  },
  setPacing({ pacing }) {
    need().sandbox.setPacing(pacing);
    return null;
  },
  expectedSeconds: ({ text }) => need().sandbox.expectedDurationSeconds(text),
  command,
  async commandWithFile({ spec, option, fileName, text, contentType }) {
    const { discord } = need();
    const attachment = discord.hostAttachment(Buffer.from(text), fileName, contentType);
    const options = [
      ...Object.entries(spec.options ?? {}).map(([name, value]) => ({ name, value })),
      { name: option, type: 11, value: attachment.id },
    ];
    const handle = await discord.command({
      guildId: spec.guildId,
      userId: spec.userId,
      name: spec.name,
      options: spec.subcommand === undefined ? options : [{ name: spec.subcommand, type: 1, options }],
    });
    return kept(handle);
  },
  now: () => performance.now(),
  async commandMany({ commands }) {
    // FakeDiscord.command only awaits the guild being ready (already true here), so these go out together.
    return Promise.all(commands.map(command));
  },
  async waitResponse({ interactionId, pattern, timeoutMs }) {
    const handle = handleOf(interactionId);
    const re = new RegExp(pattern);
    const response = await handle.waitFor((r) => re.test(r.content ?? ''), timeoutMs);
    handles.delete(interactionId);
    return response.content ?? '';
  },
  async waitReply({ interactionId, pattern, timeoutMs }) {
    const handle = handleOf(interactionId);
    const re = new RegExp(pattern);
    const response = await handle.waitFor((r) => r.kind !== 'delete' && re.test(r.content ?? ''), timeoutMs);
    const atMs = performance.now();
    handles.delete(interactionId);
    const rows = (response.message?.components ?? []) as Array<{ components?: Array<{ custom_id?: string }> }>;
    return {
      content: response.content ?? '',
      atMs,
      messageId: String(response.message?.id ?? ''),
      customIds: rows.flatMap((row) => (row.components ?? []).flatMap((c) => (c.custom_id ? [c.custom_id] : []))),
    };
  },
  async submitModal({ interactionId, values, timeoutMs }) {
    const on = handleOf(interactionId);
    await on.waitFor((r) => r.kind === 'callback' && r.type === 9, timeoutMs);
    handles.delete(interactionId);
    return kept(await need().discord.submitModal({ on, values }));
  },
  async pressButton({ guildId, userId, messageId, customId }) {
    return kept(await need().discord.pressButton({ guildId, userId, messageId, customId }));
  },
  async firstPacket({ guildId, sinceMs, timeoutMs }) {
    const packet = await need().discord.waitForPacket(
      guildId,
      (p) => !p.silence && p.receivedAtMs >= sinceMs,
      timeoutMs,
    );
    return packet.receivedAtMs;
  },
  async firstHeard({ guildId, sinceMs, timeoutMs }) {
    const { discord } = need();
    const first = await discord.waitForPacket(guildId, (p) => !p.silence && p.receivedAtMs >= sinceMs, timeoutMs);
    if (!discord.heard(guildId).dave) return first.receivedAtMs;
    // The fake stamps the first decryptable frame relative to the first packet; poll until a listener decrypted one.
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const delta = discord.heard(guildId).dave?.firstPacketToFirstDecryptableMs;
      if (delta !== undefined) return first.receivedAtMs + delta;
      if (performance.now() > deadline)
        throw new Error(`guild ${guildId}: no decryptable frame within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  },
  clearAudio({ guildIds }) {
    for (const guildId of guildIds) need().discord.clearAudio(guildId);
    return null;
  },
  async waitAudio({ guildIds, minSeconds, quietMs, timeoutMs }) {
    const { discord } = need();
    return Promise.all(
      guildIds.map(async (guildId) => {
        const heard = await discord.waitForAudio(guildId, { minSeconds, quietMs, timeoutMs });
        return {
          guildId,
          seconds: heard.seconds,
          arrivals: heard.packets.filter((p) => !p.silence).map((p) => p.receivedAtMs),
          silences: heard.packets.filter((p) => p.silence).map((p) => p.receivedAtMs),
          decryptFailures: heard.decryptFailures,
          decodeFailures: heard.decodeFailures,
          plaintextFrames: heard.dave?.plaintextFrames ?? 0,
          daveFailures: heard.dave?.decryptFailures ?? 0,
          inFull: heardInFull(guildId),
        };
      }),
    );
  },
  async waitChannelAudio({ guildId, channelId, quietMs, timeoutMs }) {
    const heard = await need().discord.waitForAudio({ guildId, channelId }, { minSeconds: 0, quietMs, timeoutMs });
    return {
      guildId,
      seconds: heard.seconds,
      arrivals: heard.packets.filter((p) => !p.silence).map((p) => p.receivedAtMs),
      silences: heard.packets.filter((p) => p.silence).map((p) => p.receivedAtMs),
      decryptFailures: heard.decryptFailures,
      decodeFailures: heard.decodeFailures,
      plaintextFrames: heard.dave?.plaintextFrames ?? 0,
      daveFailures: heard.dave?.decryptFailures ?? 0,
      inFull: heardInFull(guildId),
    };
  },
  botVoiceChannel: ({ guildId }) => need().discord.botVoiceChannel(guildId),
  moderate({ guildId, userId, mute }) {
    const { discord } = need();
    const atMs = performance.now();
    discord.setVoiceState(guildId, userId, discord.voiceChannelOf(guildId, userId), { mute });
    return atMs;
  },
  async packetsHeard({ guildId, count, timeoutMs }) {
    let heard = 0;
    // Each packet is checked once, in arrival order.
    const last = await need().discord.waitForPacket(guildId, (p) => !p.silence && ++heard >= count, timeoutMs);
    return last.receivedAtMs;
  },
  moveVoiceServer({ guildId, updateAfterMs }) {
    const atMs = performance.now();
    need().discord.moveVoiceServer(guildId, updateAfterMs === undefined ? {} : { updateAfterMs });
    return atMs;
  },
  packetsToEndedSession: ({ guildId }) => need().discord.packetsToEndedSession(guildId),
  gatewayMessages: ({ withinMs }) => need().discord.gatewayMessagesWithin(withinMs),
  botOutOfVoice({ guildIds }) {
    const { discord } = need();
    // The bot's user is the application's (no botUserId given at start): a server-side disconnect of it.
    for (const guildId of guildIds)
      if (discord.botVoiceChannel(guildId) !== null) discord.setVoiceState(guildId, APP_ID, null);
    return null;
  },
  async watchJoin({ guildId, timeoutMs }) {
    const { discord } = need();
    const deadline = performance.now() + timeoutMs;
    // The voice state is applied synchronously on op 4; a 1 ms poll is precise enough against tens of ms of delays.
    while (discord.botVoiceChannel(guildId) === null) {
      if (performance.now() > deadline)
        throw new Error(`guild ${guildId}: the bot did not join within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const voiceStateAtMs = performance.now();
    if (!daveOff) await discord.daveReady(guildId, Math.max(1, deadline - performance.now()));
    return { voiceStateAtMs, readyAtMs: performance.now() };
  },
  async daveReady({ guildId, timeoutMs }) {
    if (!daveOff) await need().discord.daveReady(guildId, timeoutMs);
    return null;
  },
  flood: (plan) => flood(need().discord, plan),
  async importDictionary({ guildId, userId, json }) {
    const { discord } = need();
    const attachment = discord.hostAttachment(Buffer.from(json), 'dictionary.json', 'application/json');
    const file = { name: 'file', type: 11, value: attachment.id };
    return kept(
      await discord.command({
        guildId,
        userId,
        name: 'dictionary',
        options: [{ name: 'import', type: 1, options: [file] }],
      }),
    );
  },
  usage({ reset }) {
    const usage = meter.read();
    if (reset) meter.reset();
    return usage;
  },
  problems: () => [...(running?.discord.problems ?? [])],
  requestCount: () => need().sandbox.requests.length,
  speechRequestCount: () =>
    need().sandbox.requests.filter((r) => r.endpoint === 'tts' || r.endpoint === 'emotion-tts').length,
  async startEngines() {
    if (engines.length > 0) throw new Error('the engine doubles are already started');
    const voicevox = await startVoicevoxDouble();
    const speech = await startSpeechServerDouble();
    engines = [voicevox, speech];
    return { voicevoxUrl: voicevox.url, speechServerUrl: speech.url };
  },
  async close() {
    await Promise.all(engines.map((double) => double.close()));
    engines = [];
    await running?.sandbox.close();
    await running?.discord.close();
    running = undefined;
    meter.stop();
    return null;
  },
};

function call<K extends Op>(message: RequestMessage<K>): Promise<Calls[K]['result']> {
  const handler: (params: Calls[K]['params']) => Promise<Calls[K]['result']> | Calls[K]['result'] =
    handlers[message.op];
  return Promise.resolve(handler(message.params));
}

function reply(message: ReplyMessage): void {
  process.send?.(message);
}

if (!process.send) {
  console.error('bench/servers.ts runs as a child of bench/run.ts (it needs an IPC channel)');
  process.exit(2);
}

/**
 * Discord is another machine: its stamps of arrivals must not wait for this host's CPU, and its other work must not
 * take CPU ahead of SayBot's. Started for figure 24 (`--stamps-first`, in a session of its own), the UDP receive
 * thread, which stamps each datagram and does little else, runs at SCHED_FIFO (the lowest real-time priority, 1),
 * where the host allows it (root or CAP_SYS_NICE; else as it is, said once). The rest of this process (the REST and
 * gateway, decrypting and decoding, the sandbox) stays an ordinary session beside SayBot's and the burners: running
 * it 10 steps ahead of them, as the bench first did, let its busy moments delay the sender thread itself by 30-50 ms
 * (a sleeping thread in a session of its own woke 35 ms late beside such a process, 4 ms beside the burners alone).
 */
function stampsFirst(): void {
  const receivers = readdirSync('/proc/self/task').filter((task) => {
    try {
      return readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim() === UDP_RECEIVE_THREAD_NAME;
    } catch {
      return false;
    }
  });
  if (receivers.length === 0) console.error('[servers] no UDP receive thread to run first: its stamps may wait');
  for (const task of receivers) {
    const set = spawnSync('chrt', ['--fifo', '--pid', '1', task], { encoding: 'utf8' });
    if (set.status === 0) console.error('[servers] the UDP receive thread stamps first (SCHED_FIFO 1)');
    else
      console.error(
        `[servers] could not run the UDP receive thread first (${set.error?.message ?? set.stderr.trim()}): its stamps may wait for the host's other work`,
      );
  }
}
const STAMPS_FIRST = process.argv.includes('--stamps-first');

const left = leaveSlowHost();
if (left !== undefined) console.error(`[servers] ${left}`);

// Started in a session of its own (figure 24), a Ctrl-C of the bench's terminal does not reach this process: it ends
// when the bench that drives it is gone.
process.on('disconnect', () => process.exit(0));

process.on('message', (raw: unknown) => {
  const message = raw as RequestMessage;
  call(message).then(
    (result) => {
      reply({ id: message.id, ok: true, result });
      if (message.op === 'close') process.disconnect();
    },
    (error: unknown) =>
      reply({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
});
