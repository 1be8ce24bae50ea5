// The playground's page and its API: a Discord client's window onto the local Discord, served on its own port. The
// page (page.ts) polls /api/state for what the picked person sees, sends what they do (a slash command, a button, the
// Speak menu, a chat message, joining voice) as the local Discord's member actions, and hears the voice channel live
// over /api/audio (server-sent events: what the local Discord decrypted from DAVE and decoded from Opus, as 24 kHz
// mono PCM). Only this origin's page may act: each change carries the page's token in a header (no other site can
// send one without CORS, which is never granted) and the Host must be the one the page was served on.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import {
  DiscordRefusal,
  FormRefusal,
  memberMessageRefusal,
  type FakeDiscord,
  type InteractionHandle,
  type InteractionOption,
} from '@saybot/local-discord';
import { PAGE_HTML } from './page.ts';
import { PAGE_SCRIPT } from './page-script.ts';
import { PAGE_STYLE } from './page-style.ts';
import { BOUNDS } from './bounds.ts';
import { ChatLog } from './chat-log.ts';
import type { SaybotStatus } from './saybot-status.ts';
import {
  channelMessages,
  directMessages,
  proxyAttachment,
  shownMessage,
  unanswered,
  type ShownMessage,
} from './view.ts';
import { GUILD, GUILD_ID, PEOPLE, personById, TEXT_CHANNELS, VOICE_CHANNELS, type Person } from './world.ts';

export interface PageOptions {
  discord: FakeDiscord;
  /** Whether SayBot still runs: once it stopped, the page says so and refuses every action. */
  saybot: SaybotStatus;
  dashboardUrl: string;
  /** The helper bots: shown in the voice channel each sits in. */
  helpers?: ReadonlyArray<{ userId: string; username: string }>;
  speech: 'words' | 'tones';
  host: string;
  port: number;
}

export interface Page {
  url: string;
  /** The bytes queued for each page listening to the voice channel (what it has not read yet). */
  listening(): number[];
  close(): Promise<void>;
}

/** The strict policy of every answer: this origin's script and style only, nothing inline, no frames. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const SECURITY_HEADERS = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};
/** A command's attachment (a clip to clone, up to Discord's 10 MiB) travels as base64 in JSON. */
const MAX_BODY_BYTES = 15 * 1024 * 1024;

class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

type Json = Record<string, unknown>;

interface Started {
  personId: string;
  handle: InteractionHandle;
  /** The text channel it was used in (undefined: a button on a direct message). */
  channelId: string | undefined;
  /** The command's, menu's or form's name, or the button's custom_id. */
  name: string;
  button: boolean;
  /** The person closed the form SayBot answered it with (Cancel or Escape): Discord's client no longer shows it. */
  formClosed?: boolean;
}

export async function startPage(options: PageOptions): Promise<Page> {
  const { discord } = options;
  const token = randomBytes(24).toString('base64url');
  const chat = new ChatLog(BOUNDS.messagesPerChannel);
  const listeners = new Set<ServerResponse>();
  /**
   * The newest interactions the page started, by ID: whose they are, to draw a modal SayBot answers one with, and
   * where, to say "The application did not respond" there when SayBot leaves one unanswered past Discord's 3 s.
   */
  const started = new Map<string, Started>();
  const start = (
    person: Person,
    handle: InteractionHandle,
    where: { channelId: string | undefined; name: string; button?: boolean },
  ): { id: string } => {
    started.set(handle.id, { personId: person.id, handle, button: false, ...where });
    for (const id of started.keys()) {
      if (started.size <= BOUNDS.openInteractions) break;
      started.delete(id);
    }
    return { id: handle.id };
  };
  let hosts: string[] = [];
  let port = 0;

  const me = (value: unknown): Person => {
    const person = typeof value === 'string' ? personById(value) : undefined;
    if (person === undefined) throw new HttpError(400, 'pick who you are first');
    return person;
  };
  /** The person picked, acting in the server: refused once removed from it (their client no longer has it). */
  const memberActing = (value: unknown): Person => {
    const person = me(value);
    if (!discord.isMember(GUILD_ID, person.id))
      throw new HttpError(403, `${person.username} is no longer a member of ${GUILD.name}`);
    return person;
  };
  /** SayBot's commands, buttons, menus and forms: a server it left no longer has them ("This interaction failed"). */
  const saybotHere = (): void => {
    if (!discord.botIsIn(GUILD_ID)) throw new HttpError(409, `This interaction failed: SayBot is not in ${GUILD.name}`);
  };
  const textChannel = (value: unknown): string => {
    const channel = TEXT_CHANNELS.find((c) => c.id === value);
    if (channel === undefined) throw new HttpError(400, 'no such text channel');
    return channel.id;
  };

  /** A slash command as the page sends it (used, or being typed for autocomplete), by the person picked. */
  const slashCommand = (person: Person, body: Json) => ({
    guildId: GUILD_ID,
    userId: person.id,
    channelId: textChannel(body.channelId),
    name: String(body.name),
    options: Array.isArray(body.options) ? (body.options as Json[]).map(asOption) : [],
  });

  const actions: Record<string, (body: Json) => Promise<unknown>> = {
    async command(body) {
      const person = memberActing(body.as);
      saybotHere();
      const attachments = Array.isArray(body.attachments) ? body.attachments.map(asAttachment) : [];
      const handle = await discord.command({
        ...slashCommand(person, body),
        ...(attachments.length > 0 ? { attachments } : {}),
      });
      return start(person, handle, { channelId: textChannel(body.channelId), name: String(body.name) });
    },
    async autocomplete(body) {
      saybotHere();
      const choices = await discord.autocomplete({ ...slashCommand(memberActing(body.as), body), timeoutMs: 3000 });
      return { choices: choices.slice(0, 25) };
    },
    async press(body) {
      const person = memberActing(body.as);
      saybotHere();
      const handle = await discord.pressButton({
        guildId: GUILD_ID,
        userId: person.id,
        messageId: String(body.messageId),
        customId: String(body.customId),
      });
      const channelId = TEXT_CHANNELS.find((c) =>
        discord.messagesIn(c.id, BOUNDS.messagesPerChannel).some((m) => String(m.id) === String(body.messageId)),
      )?.id;
      return start(person, handle, { channelId, name: String(body.customId), button: true });
    },
    async menu(body) {
      const person = memberActing(body.as);
      saybotHere();
      const channelId = textChannel(body.channelId);
      const target =
        chat.find(channelId, String(body.messageId)) ?? shownMessage(discord, channelId, body.messageId, person.id);
      if (target === undefined) throw new HttpError(404, 'that message is gone');
      const handle = await discord.messageCommand({
        guildId: GUILD_ID,
        userId: person.id,
        channelId,
        name: String(body.name),
        message: target,
      });
      return start(person, handle, { channelId, name: String(body.name) });
    },
    async modal(body) {
      const person = memberActing(body.as);
      saybotHere();
      const opened = started.get(String(body.interactionId));
      if (opened === undefined || opened.personId !== person.id || opened.handle.modal === undefined)
        throw new HttpError(404, 'that form is closed');
      const given = (body.values ?? {}) as Json;
      const values: Record<
        string,
        string | boolean | Array<{ data: Uint8Array; filename: string; contentType?: string }>
      > = {};
      for (const [id, value] of Object.entries(given).slice(0, 5)) {
        if (typeof value === 'string') values[id] = value.slice(0, 4000);
        else if (typeof value === 'boolean') values[id] = value;
        else if (Array.isArray(value)) values[id] = value.slice(0, 10).map((file) => asUpload(file));
      }
      try {
        const handle = await discord.submitModal({ on: opened.handle, values });
        return start(person, handle, { channelId: opened.channelId, name: opened.name });
      } catch (error) {
        if (error instanceof FormRefusal) throw new HttpError(400, error.message);
        throw error;
      }
    },
    /** The person closed a form unsent: nothing reaches SayBot (Discord sends nothing), and it is not shown again. */
    async dismiss(body) {
      const person = me(body.as);
      const opened = started.get(String(body.interactionId));
      if (opened !== undefined && opened.personId === person.id) opened.formClosed = true;
      return {};
    },
    async post(body) {
      const person = memberActing(body.as);
      const channelId = textChannel(body.channelId);
      const content = String(body.content ?? '');
      if (content.trim() === '') throw new HttpError(400, 'an empty message is not sent');
      const refusal = memberMessageRefusal(content);
      if (refusal !== undefined) throw refusal;
      const message = chat.add({
        channelId,
        guildId: GUILD_ID,
        author: { id: person.id, username: person.username },
        member: { roles: [] },
        content,
      });
      await discord.postMessage(message);
      return { id: message.id };
    },
    async voice(body) {
      const person = memberActing(body.as);
      const channelId = body.channelId === null ? null : VOICE_CHANNELS.find((c) => c.id === body.channelId)?.id;
      if (channelId === undefined) throw new HttpError(400, 'no such voice channel');
      discord.setVoiceState(GUILD_ID, person.id, channelId);
      return {};
    },
    /** The server's owner adds SayBot back after it left (as with its invite link): it gets the server again. */
    async invite(body) {
      const person = memberActing(body.as);
      if (person.role !== 'owner') throw new HttpError(403, `only the owner of ${GUILD.name} adds apps to it here`);
      if (!discord.botIsIn(GUILD_ID)) discord.addBotBack(GUILD_ID);
      return {};
    },
  };

  /** The newest form SayBot answered this person's interaction with, while it waits to be submitted. */
  const openModal = (personId: string): Json | null => {
    const open = [...started.values()]
      .filter((s) => s.personId === personId && s.handle.modal !== undefined && s.formClosed !== true)
      .at(-1);
    return open === undefined ? null : { interactionId: open.handle.id, ...open.handle.modal };
  };

  /** This person's interactions SayBot left unanswered past Discord's 3 s in a channel, as their client shows them. */
  const unansweredIn = (channelId: string, person: Person): ShownMessage[] =>
    [...started.values()]
      .filter((s) => s.personId === person.id && s.channelId === channelId && s.handle.didNotRespond)
      .map((s) => unanswered({ id: s.handle.id, user: person.username, name: s.name, button: s.button }));

  /**
   * What the person picked sees, as their client follows the server: SayBot there or not (it may leave, or be
   * removed, and be added back), who is a member (one may be removed) and in voice, the channels' messages.
   */
  const state = (as: string | null): Json => {
    const person = as === null ? undefined : personById(as);
    const botId = discord.oauth2.clientId;
    const here = discord.botIsIn(GUILD_ID);
    const inServer = person !== undefined && discord.isMember(GUILD_ID, person.id);
    const inVoice = (channelId: string) => [
      ...PEOPLE.filter((p) => discord.voiceChannelOf(GUILD_ID, p.id) === channelId).map((p) => ({
        id: p.id,
        name: p.username,
      })),
      ...(here && discord.botVoiceChannel(GUILD_ID) === channelId ? [{ id: botId, name: 'SayBot', bot: true }] : []),
      ...(options.helpers ?? [])
        .filter((helper) => discord.botVoiceChannel(GUILD_ID, helper.userId) === channelId)
        .map((helper) => ({ id: helper.userId, name: helper.username, bot: true })),
    ];
    return {
      speech: options.speech,
      saybot: { stopped: options.saybot.stopped() ?? null, inServer: here },
      saybotId: botId,
      server: GUILD.name,
      people: PEOPLE.map((p) => ({ ...p, member: discord.isMember(GUILD_ID, p.id) })),
      me: person === undefined ? null : { ...person, member: inServer },
      text: TEXT_CHANNELS.map((channel) => ({
        ...channel,
        messages:
          person === undefined || !inServer
            ? []
            : channelMessages(discord, chat, channel.id, person.id, unansweredIn(channel.id, person)),
        // What this person's client offers here: Discord hides a command they may not use (its default member
        // permissions, the server's command permissions for them or this channel).
        commands:
          person === undefined || !inServer || !here
            ? []
            : discord.commandsFor({ guildId: GUILD_ID, userId: person.id, channelId: channel.id }),
      })),
      voice: VOICE_CHANNELS.map((channel) => ({ ...channel, members: inVoice(channel.id) })),
      direct: person === undefined ? [] : directMessages(discord, person.id),
      modal: person === undefined || !inServer || !here ? null : openModal(person.id),
    };
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // What Discord refuses a member's client (another's private reply is Unknown Message) is answered as it does.
      const status = error instanceof HttpError || error instanceof DiscordRefusal ? error.status : 500;
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      if (!res.headersSent) send(res, status, 'application/json', JSON.stringify({ error: message }));
      else res.end();
    });
  });

  /** The page's token, or 403: no other site's page knows it. */
  function checkToken(value: unknown): void {
    const given = Buffer.from(typeof value === 'string' ? value : '');
    const wanted = Buffer.from(token);
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw new HttpError(403, 'no page token');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://playground');
    // DNS rebinding: another name resolving here gets nothing.
    if (!hosts.includes(req.headers.host ?? '')) throw new HttpError(421, 'unknown host');
    if (req.method === 'GET') {
      if (url.pathname === '/') return send(res, 200, 'text/html; charset=utf-8', PAGE_HTML(token));
      if (url.pathname === '/page.js') return send(res, 200, 'text/javascript; charset=utf-8', PAGE_SCRIPT);
      if (url.pathname === '/page.css') return send(res, 200, 'text/css; charset=utf-8', PAGE_STYLE);
      if (url.pathname === '/favicon.ico') {
        res.writeHead(204, SECURITY_HEADERS);
        return void res.end();
      }
      if (url.pathname === '/api/state') {
        return send(res, 200, 'application/json', JSON.stringify(state(url.searchParams.get('as'))));
      }
      if (url.pathname === '/api/audio') return listen(req, res, url.searchParams.get('channel'));
      if (url.pathname === '/dashboard') {
        // The dashboard, signed in as the person picked: they have authorized SayBot's login before, and this
        // browser alone (a one-time cookie of the local Discord's, for 127.0.0.1 whatever the port, good for a
        // minute) is signed in to the local Discord as them, so the dashboard's /login comes straight back logged
        // in; any other client asking gets Discord's consent page. Signing in is a change: only the page's own link
        // (its token in the address) may, not another site's.
        checkToken(url.searchParams.get('token'));
        const person = me(url.searchParams.get('as'));
        // The cookie must be 127.0.0.1's, where the local Discord listens: a page opened as localhost goes there first.
        if (
          new URL(`http://${req.headers.host ?? ''}`).hostname !== '127.0.0.1' &&
          ['127.0.0.1', '0.0.0.0', '::'].includes(options.host)
        ) {
          res.writeHead(302, { ...SECURITY_HEADERS, location: `http://127.0.0.1:${port}${url.pathname}${url.search}` });
          return void res.end();
        }
        discord.oauth2.preauthorize(person.id, ['identify', 'guilds']);
        const { setCookie } = discord.oauth2.signInBrowser(person.id);
        res.writeHead(302, { ...SECURITY_HEADERS, 'set-cookie': setCookie, location: `${options.dashboardUrl}/login` });
        return void res.end();
      }
      const file = /^\/cdn\/(\d{1,20})\/([^/]{1,200})$/.exec(url.pathname);
      if (file) return proxyAttachment(discord, file[1]!, file[2]!, res, SECURITY_HEADERS);
      throw new HttpError(404, 'not found');
    }
    if (req.method === 'POST' && url.pathname.startsWith('/api/')) {
      checkToken(req.headers['x-playground-token']);
      const action = actions[url.pathname.slice('/api/'.length)];
      if (action === undefined) throw new HttpError(404, 'no such action');
      // Nobody would answer it: said at once, rather than Discord's silence.
      const stopped = options.saybot.stopped();
      if (stopped !== undefined) throw new HttpError(503, `${stopped}. Restart the playground (npm run playground).`);
      const body = await readJson(req);
      return send(res, 200, 'application/json', JSON.stringify(await action(body)));
    }
    throw new HttpError(405, 'method not allowed');
  }

  /** `channelId`: one voice channel heard apart; none: every voice channel of the server. */
  function listen(req: IncomingMessage, res: ServerResponse, channelId: string | null): void {
    if (listeners.size >= BOUNDS.listeners) throw new HttpError(503, 'too many pages listening');
    if (channelId !== null && !VOICE_CHANNELS.some((channel) => channel.id === channelId))
      throw new HttpError(400, 'no such voice channel');
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream' });
    res.write(': listening\n\n');
    listeners.add(res);
    const stop = discord.onHeard(channelId === null ? GUILD_ID : { guildId: GUILD_ID, channelId }, (pcm) => {
      // A page that does not keep up (stalled, or gone without closing) is dropped at its bound, rather than the
      // process queueing what it will never read; a live page reconnects (EventSource does) and hears on from now.
      const event = `data: ${monoAt24k(pcm).toString('base64')}\n\n`;
      if (res.writableLength + event.length > BOUNDS.listenerBytes) {
        end();
        res.destroy();
        return;
      }
      res.write(event);
    });
    const end = () => {
      stop();
      listeners.delete(res);
    };
    req.once('close', end);
    res.once('close', end);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  ({ port } = server.address() as AddressInfo);
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  hosts = [`${shownHost}:${port}`, `127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  if (!['127.0.0.1', 'localhost', '::1'].includes(options.host)) hosts = [...hosts, ...otherHosts(port)];
  return {
    url: `http://${options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : shownHost}:${port}`,
    listening: () => [...listeners].map((res) => res.writableLength),
    async close() {
      for (const res of listeners) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Every address of this machine, for a page opened from elsewhere (--host 0.0.0.0). */
function otherHosts(port: number): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((i) => i !== undefined)
    .map((i) => (i.family === 'IPv6' ? `[${i.address}]:${port}` : `${i.address}:${port}`));
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type });
  res.end(body);
}

async function readJson(req: IncomingMessage): Promise<Json> {
  if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) throw new HttpError(415, 'send JSON');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'too large');
    chunks.push(chunk);
  }
  const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new HttpError(400, 'not an object');
  return parsed as Json;
}

/** A command option from the page: name, value, and Discord's option type (users and channels are IDs). */
function asOption(option: Json): InteractionOption {
  const out: InteractionOption = { name: String(option.name) };
  if (typeof option.type === 'number') out.type = option.type;
  if (typeof option.value === 'string' || typeof option.value === 'number' || typeof option.value === 'boolean')
    out.value = option.value;
  if (option.focused === true) out.focused = true;
  if (Array.isArray(option.options)) out.options = (option.options as Json[]).map(asOption);
  return out;
}

/** A file the page sent as base64 in JSON (a command's attachment, a form's upload). */
function asUpload(value: unknown): { data: Uint8Array; filename: string; contentType?: string } {
  const a = (value ?? {}) as Json;
  return {
    data: Buffer.from(String(a.base64 ?? ''), 'base64'),
    filename: String(a.filename ?? 'file').slice(0, 200),
    ...(typeof a.contentType === 'string' && a.contentType !== '' ? { contentType: a.contentType } : {}),
  };
}

function asAttachment(value: unknown): { option: string; data: Uint8Array; filename: string; contentType?: string } {
  return { option: String(((value ?? {}) as Json).option), ...asUpload(value) };
}

/** 48 kHz stereo interleaved s16 as 24 kHz mono s16 (each output sample the mean of two frames' both channels). */
function monoAt24k(pcm: Int16Array): Buffer {
  const out = Buffer.alloc(Math.floor(pcm.length / 4) * 2);
  for (let i = 0, o = 0; o < out.length; i += 4, o += 2)
    out.writeInt16LE(Math.round(((pcm[i] ?? 0) + (pcm[i + 1] ?? 0) + (pcm[i + 2] ?? 0) + (pcm[i + 3] ?? 0)) / 4), o);
  return out;
}
