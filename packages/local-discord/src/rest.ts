// The REST API (/api/v10/...) as discord.js calls it, plus the CDN, on one node:http handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PermissionFlagsBits } from 'discord.js';
import { BodyError, parseBody, type ParsedBody } from './body.ts';
import type { Cdn } from './cdn.ts';
import type { CommandStore } from './commands.ts';
import type { CommandPermissionStore } from './command-permissions.ts';
import { addCommandRoutes } from './command-routes.ts';
import type { Answer, Interactions } from './interactions.ts';
import { InvalidRequests } from './invalid-requests.ts';
import { apiError, asObject, checkMessageBody, type ApiError, type MessageStore } from './messages.ts';
import { fail, ID, ok, type AddRoute, type Context, type RateLimitedRoute } from './rest-routes.ts';
import { checkVoiceMessagePermission } from './voice-message.ts';
import { setVoiceStatus } from './voice-status.ts';
import { createSound, deleteSound } from './soundboard.ts';
import {
  GatewayIntent,
  channelPayload,
  dmChannelPayload,
  guildPayload,
  memberPayload,
  rolePayload,
  userPayload,
  voiceStatePayload,
  type GuildRecord,
  type UserRecord,
} from './state.ts';
import type { BotApplication, World } from './world.ts';
import type { RestLogEntry, SentChannelMessage, SentDirectMessage } from './types.ts';
import { keepLast } from './retention.ts';

export type { RateLimitedRoute } from './rest-routes.ts';

export interface RestDeps {
  world: World;
  /** Each application's own commands. */
  commandsOf: (application: BotApplication) => CommandStore;
  /** The servers' command permissions, which a member with a Bearer token edits (PUT .../permissions). */
  commandPermissions: CommandPermissionStore;
  /** The user and scopes of a live OAuth2 access token (`Authorization: Bearer ...`), else undefined. */
  bearer: (authorization: string | undefined) => { userId: string; scopes: readonly string[] } | undefined;
  /** A command's permissions changed: APPLICATION_COMMAND_PERMISSIONS_UPDATE follows on the gateway. */
  commandPermissionsUpdated: (application: BotApplication, guildId: string, payload: Record<string, unknown>) => void;
  interactions: Interactions;
  messages: MessageStore;
  cdn: Cdn;
  shards: number;
  /** Invalid requests (401, 403, 429) the host may make in 10 minutes before it is kept out (invalid-requests.ts). */
  invalidRequestLimit?: number;
  gatewayUrl: () => string;
  report: (line: string) => void;
  /** A bot leaves a guild: false when it is in no such guild. GUILD_DELETE follows on the gateway. */
  leaveGuild: (guildId: string, application: BotApplication) => boolean;
  /** A member's voice state changed by REST (a Stage's suppress, a raised hand): VOICE_STATE_UPDATE follows. */
  voiceStateChanged: (guildId: string, userId: string) => void;
  /** A member changed by REST (a timeout): GUILD_MEMBER_UPDATE follows, to a bot with the Guild Members intent. */
  memberUpdated: (guildId: string, userId: string) => void;
}

interface Route {
  method: string;
  pattern: RegExp;
  auth: boolean;
  name: RateLimitedRoute | undefined;
  handle: (ctx: Context) => Answer;
}

/**
 * 429s the fake answers next, before the request is handled (so it has no effect and may be retried). Per route:
 * `route` names it (scope `user`, with a bucket). Global (`global: true`): the next requests made with the bot
 * token, whatever the route; interaction routes are not bound by the global limit, as Discord documents.
 */
export interface RateLimitInjection {
  route?: RateLimitedRoute;
  global?: boolean;
  /**
   * Whose bucket: the requests of this bot user's application only (its token; an interaction route of its
   * interactions), as every bucket is per token. Default: whoever makes the next matching request.
   */
  botUserId?: string;
  /** On a webhook route, one interaction's requests only (its token), as each interaction's webhook is a bucket. */
  interactionToken?: string;
  /** retry_after; default 250 ms. */
  retryAfterMs?: number;
  /** How many requests in a row are refused; default 1. Infinity: every one until clearRateLimits. */
  times?: number;
}

/** A refusal the fake answers next on a route, as Discord refuses a message it will not take (e.g. 400 50035). */
export interface RefusalInjection {
  route: RateLimitedRoute;
  status: number;
  code: number;
  message: string;
  /** Discord's `errors` object (which field, why). */
  errors?: Record<string, unknown>;
  /** How many requests in a row are refused; default 1. */
  times?: number;
}

const API_PREFIX = '/api/v10';

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export class RestApi {
  readonly log: RestLogEntry[] = [];
  readonly sentMessages: SentChannelMessage[] = [];
  /** Log entries, sent messages and direct messages kept (FakeDiscordOptions.retain). */
  retain = Infinity;
  /** Messages the bot sent to members' DM channels (kept apart from the guilds' channels), the newest `retain`. */
  readonly directMessages: SentDirectMessage[] = [];
  /** Called after each channel or direct message the bot posts (waits subscribe here). */
  readonly messageListeners = new Set<() => void>();
  private readonly deps: RestDeps;
  private readonly routes: Route[];
  private readonly rateLimits: Array<
    Required<Omit<RateLimitInjection, 'route' | 'botUserId' | 'interactionToken'>> & {
      route: RateLimitedRoute | undefined;
      botUserId: string | undefined;
      interactionToken: string | undefined;
    }
  > = [];
  /** Invalid requests from this host (every token's): past the limit, all are refused for a while. */
  readonly invalidRequests: InvalidRequests;

  private readonly refusals: Array<RefusalInjection & { times: number }> = [];

  /** Forgets refusals not yet used, so a test that armed more than its requests consumed leaves none behind. */
  clearRefusals(): void {
    this.refusals.length = 0;
  }

  /** Answers the next request(s) on a route with Discord's refusal (see RefusalInjection). */
  injectRefusal(injection: RefusalInjection): void {
    this.refusals.push({ ...injection, times: injection.times ?? 1 });
  }

  private refused(route: Route): Answer | undefined {
    const index = this.refusals.findIndex((r) => r.route === route.name);
    const refusal = this.refusals[index];
    if (refusal === undefined) return undefined;
    refusal.times -= 1;
    if (refusal.times <= 0) this.refusals.splice(index, 1);
    this.deps.report(
      `REST ${route.name ?? route.pattern.source}: refused as injected -> ${refusal.status} ${refusal.code}`,
    );
    return fail(apiError(refusal.status, refusal.code, refusal.message, refusal.errors));
  }

  /** Answers the next matching request(s) with 429 (see RateLimitInjection). */
  injectRateLimit(injection: RateLimitInjection): void {
    if (!injection.global && injection.route === undefined)
      throw new Error('FakeDiscord.rateLimit: name a route, or ask for a global limit');
    this.rateLimits.push({
      route: injection.route,
      botUserId: injection.botUserId,
      interactionToken: injection.interactionToken,
      global: injection.global ?? false,
      retryAfterMs: injection.retryAfterMs ?? 250,
      times: injection.times ?? 1,
    });
  }

  /** Forgets the 429s armed and not yet all answered (one armed for `times: Infinity` holds its route until then). */
  clearRateLimits(): void {
    this.rateLimits.length = 0;
  }

  /** The 429 for this request, if one is armed for it: body and headers as Discord sends them. */
  private rateLimited(route: Route, application: BotApplication, params: string[]): Answer | undefined {
    // A webhook route's second parameter is the interaction's token.
    const token = route.name?.startsWith('webhook-') === true ? params[1] : undefined;
    const index = this.rateLimits.findIndex(
      (r) =>
        (r.botUserId === undefined || r.botUserId === application.user.id) &&
        (r.interactionToken === undefined || r.interactionToken === token) &&
        (r.global ? route.auth && (r.route === undefined || r.route === route.name) : r.route === route.name),
    );
    const limit = this.rateLimits[index];
    if (limit === undefined) return undefined;
    limit.times -= 1;
    if (limit.times <= 0) this.rateLimits.splice(index, 1);
    const seconds = limit.retryAfterMs / 1000;
    const headers: Record<string, string> = {
      'retry-after': String(Math.ceil(seconds)),
      'x-ratelimit-scope': limit.global ? 'global' : 'user',
    };
    if (limit.global) headers['x-ratelimit-global'] = 'true';
    else {
      Object.assign(headers, {
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-bucket': `fake-${route.name ?? 'route'}-${application.applicationId}`,
        'x-ratelimit-reset': ((Date.now() + limit.retryAfterMs) / 1000).toFixed(3),
        'x-ratelimit-reset-after': seconds.toFixed(3),
      });
    }
    this.deps.report(
      `REST ${route.name ?? route.pattern.source}: rate limited (${limit.global ? 'global' : 'route'}, retry after ${seconds} s) -> 429`,
    );
    return {
      status: 429,
      json: { message: 'You are being rate limited.', retry_after: seconds, global: limit.global },
      headers,
    };
  }

  constructor(deps: RestDeps) {
    this.deps = deps;
    this.invalidRequests = new InvalidRequests(deps.invalidRequestLimit);
    this.routes = this.buildRoutes();
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    this.serve(req, res).catch((error: unknown) => {
      this.deps.report(`REST handler failed for ${req.method} ${req.url}: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: '500: Internal Server Error', code: 0 }));
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const headers = flattenHeaders(req);
    if (this.deps.cdn.serve(req, res, url.pathname, headers)) return;
    const raw = await readBody(req);
    const method = req.method ?? 'GET';
    const entry: RestLogEntry = { method, path: req.url ?? '/', headers, body: raw.toString('utf8'), status: 0 };
    this.log.push(entry);
    keepLast(this.log, this.retain);
    const result = this.invalidRequests.banned()
      ? {
          status: 429,
          json: {
            message:
              'You are being blocked from accessing our API temporarily due to exceeding our rate limits frequently.',
            code: 0,
            retry_after: 600,
            global: true,
          },
        }
      : await this.route(method, url, headers, raw);
    this.invalidRequests.note(result.status, result.headers?.['x-ratelimit-scope']);
    entry.status = result.status;
    if (result.status === 204 || result.json === undefined) {
      res.writeHead(result.status).end();
      return;
    }
    const text = JSON.stringify(result.json);
    res
      .writeHead(result.status, {
        ...result.headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      })
      .end(text);
  }

  private async route(method: string, url: URL, headers: Record<string, string>, raw: Buffer): Promise<Answer> {
    if (!url.pathname.startsWith(`${API_PREFIX}/`)) return this.unknown(method, url);
    const path = url.pathname.slice(API_PREFIX.length);
    let segments: string[];
    try {
      segments = path.split('/').map((s) => decodeURIComponent(s));
    } catch {
      return this.unknown(method, url);
    }
    const decoded = segments.join('/');
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const match = route.pattern.exec(decoded);
      if (!match) continue;
      const { world } = this.deps;
      const authorization = headers.authorization;
      const byToken = authorization?.startsWith('Bot ') === true ? world.applicationByToken(authorization) : undefined;
      if (route.auth && !byToken) {
        this.deps.report(`REST ${method} ${url.pathname}: missing or wrong Authorization -> 401`);
        return fail(apiError(401, 0, '401: Unauthorized'));
      }
      const params = match.slice(1).map((p) => p ?? '');
      // A webhook route names its application; the other token-less routes are the main application's.
      const application =
        byToken ??
        (decoded.startsWith('/webhooks/')
          ? [...world.applications.values()].find((a) => a.applicationId === params[0])
          : undefined) ??
        world.main;
      const limited = this.rateLimited(route, application, params) ?? this.refused(route);
      if (limited) return limited;
      let body: ParsedBody;
      try {
        body = await parseBody(headers['content-type'], raw);
      } catch (error) {
        if (error instanceof BodyError) return fail(apiError(400, 50109, error.message));
        throw error;
      }
      return route.handle({ params, query: url.searchParams, body, headers, application });
    }
    return this.unknown(method, url);
  }

  private unknown(method: string, url: URL): Answer {
    this.deps.report(`REST: no route for ${method} ${url.pathname}${url.search} (answered 404)`);
    return fail(apiError(404, 0, '404: Not Found'));
  }

  /** A message to a member's DM channel: refused as Discord does when they accept no DMs from the bot. */
  private sendDirect(channelId: string, recipient: UserRecord, body: ParsedBody, author: UserRecord): Answer {
    if (recipient.dmsClosed === true) return fail(apiError(403, 50007, 'Cannot send messages to this user'));
    const json = asObject(body.json);
    const problem = checkMessageBody(json, body.files, true);
    if (problem) return fail(problem);
    const message = this.deps.messages.create({ channelId, guild: undefined, author, type: 0 }, json, body.files);
    this.directMessages.push({
      userId: recipient.id,
      channelId,
      message,
      files: body.files.map(({ index: _index, ...f }) => f),
      raw: body.json,
    });
    keepLast(this.directMessages, this.retain);
    for (const listener of [...this.messageListeners]) listener();
    return ok(message);
  }

  private buildRoutes(): Route[] {
    const { world, interactions, messages } = this.deps;
    const routes: Route[] = [];
    const add: AddRoute = (method, pattern, auth, handle, name) => {
      routes.push({ method, pattern: new RegExp(`^${pattern}$`), auth, name, handle });
    };
    const id = ID;
    const unknownGuild = fail(apiError(404, 10004, 'Unknown Guild'));
    // Each route acts as the bot whose token it carries, in the servers that bot is in.
    const guildOf = (application: BotApplication, guildId: string): GuildRecord | undefined =>
      world.guildOf(application, guildId);

    // ---- gateway, users, application ----
    add('GET', '/gateway', false, () => ok({ url: this.deps.gatewayUrl() }));
    add('GET', '/gateway/bot', true, ({ application }) =>
      ok({
        url: this.deps.gatewayUrl(),
        shards: this.deps.shards,
        // Per token. max_concurrency 16 lets several shards identify at once (discord.js waits 5 s per bucket otherwise).
        session_start_limit: { ...application.sessionStartLimit(), max_concurrency: 16 },
      }),
    );
    add('GET', '/users/@me', true, ({ application }) =>
      ok({ ...userPayload(application.user), verified: true, mfa_enabled: false, locale: 'en-US', email: null }),
    );
    add('GET', `/users/${id}`, true, ({ params: [userId = ''] }) => {
      const user = world.findUser(userId);
      return user ? ok(userPayload(user)) : fail(apiError(404, 10013, 'Unknown User'));
    });
    // A DM channel with a user; opening one always works, sending to it may not (403 50007, below).
    add('POST', '/users/@me/channels', true, ({ body, application }) => {
      const recipientId = asObject(body.json).recipient_id;
      const user =
        typeof recipientId === 'string' && recipientId !== application.user.id
          ? world.findUser(recipientId)
          : undefined;
      if (!user) return fail(apiError(400, 50033, 'Invalid Recipient(s)'));
      return ok(dmChannelPayload(world.dmChannelWith(user), user));
    });
    add('GET', '/applications/@me', true, ({ application }) =>
      ok({
        id: application.applicationId,
        name: application.user.username,
        icon: null,
        description: '',
        bot_public: application.botPublic,
        bot_require_code_grant: false,
        flags: applicationFlags(application.allowedPrivilegedIntents),
        verify_key: '0'.repeat(64),
        team: null,
        owner: userPayload(
          world.findUser(application.ownerId) ?? { id: application.ownerId, username: 'owner', bot: false },
        ),
        bot: userPayload(application.user),
        approximate_guild_count: world.guildsOf(application).length,
        integration_types_config: {},
      }),
    );

    // The servers the bot is in, as Discord pages them: by ID, after `after`, at most `limit` (1 to 200, default 200).
    add('GET', '/users/@me/guilds', true, ({ query, application }) => {
      const limit = Math.max(1, Math.min(Number(query.get('limit') ?? 200) || 200, 200));
      const after = BigInt(query.get('after') ?? '0');
      const mine = world
        .guildsOf(application)
        .filter((guild) => BigInt(guild.id) > after)
        .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
        .slice(0, limit);
      return ok(
        mine.map((guild) => ({
          id: guild.id,
          name: guild.name,
          icon: guild.icon,
          owner: guild.ownerId === application.user.id,
          permissions: '0',
          features: [],
        })),
      );
    });
    add(
      'DELETE',
      `/users/@me/guilds/${id}`,
      true,
      ({ params: [guildId = ''], application }) => {
        const guild = guildOf(application, guildId);
        if (!guild) return unknownGuild;
        // Discord refuses an owner leaving its own server (it must be transferred or deleted).
        if (guild.ownerId === application.user.id) return fail(apiError(400, 50055, 'Invalid guild'));
        return this.deps.leaveGuild(guildId, application) ? { status: 204 } : unknownGuild;
      },
      'leave-guild',
    );

    addCommandRoutes(add, {
      world,
      commandsOf: this.deps.commandsOf,
      commandPermissions: this.deps.commandPermissions,
      bearer: this.deps.bearer,
      commandPermissionsUpdated: this.deps.commandPermissionsUpdated,
    });

    // ---- guilds ----
    add('GET', `/guilds/${id}`, true, ({ params: [guildId = ''], application }) => {
      const guild = guildOf(application, guildId);
      return guild
        ? ok({ ...guildPayload(guild), approximate_member_count: guild.members.size, approximate_presence_count: 0 })
        : unknownGuild;
    });
    add('GET', `/guilds/${id}/channels`, true, ({ params: [guildId = ''], application }) => {
      const guild = guildOf(application, guildId);
      return guild ? ok([...guild.channels.values()].map((c) => channelPayload(guild, c))) : unknownGuild;
    });
    add('GET', `/guilds/${id}/roles`, true, ({ params: [guildId = ''], application }) => {
      const guild = guildOf(application, guildId);
      return guild ? ok(guild.roles.map(rolePayload)) : unknownGuild;
    });
    add('GET', `/guilds/${id}/members`, true, ({ params: [guildId = ''], query, application }) => {
      const guild = guildOf(application, guildId);
      if (!guild) return unknownGuild;
      if ((application.allowedPrivilegedIntents & GatewayIntent.GuildMembers) === 0)
        return fail(apiError(403, 50001, 'Missing Access'));
      const limit = Math.min(Number(query.get('limit') ?? 1), 1000);
      const after = BigInt(query.get('after') ?? '0');
      const list = [...guild.members.values()]
        .filter((m) => BigInt(m.user.id) > after)
        .sort((a, b) => (BigInt(a.user.id) < BigInt(b.user.id) ? -1 : 1));
      return ok(list.slice(0, limit).map((m) => memberPayload(guild, m)));
    });
    add('GET', `/guilds/${id}/members/${id}`, true, ({ params: [guildId = '', userId = ''], application }) => {
      const guild = guildOf(application, guildId);
      if (!guild) return unknownGuild;
      const member = guild.members.get(userId === '@me' ? application.user.id : userId);
      return member ? ok(memberPayload(guild, member)) : fail(apiError(404, 10007, 'Unknown Member'));
    });
    // Modify Guild Member, for what the local Discord models of it: a timeout (communication_disabled_until), set or
    // lifted by the bot as a moderator. 200 with the member; GUILD_MEMBER_UPDATE follows.
    add('PATCH', `/guilds/${id}/members/${id}`, true, ({ params: [guildId = '', userId = ''], body, application }) => {
      const guild = guildOf(application, guildId);
      if (!guild) return unknownGuild;
      const json = asObject(body.json);
      const fields = Object.keys(json);
      if (fields.length === 0 || fields.some((field) => field !== 'communication_disabled_until')) {
        this.deps.report(`REST PATCH member: only communication_disabled_until is modelled (got ${fields.join(', ')})`);
        return fail(apiError(400, 50035, 'Invalid Form Body'));
      }
      const refused = guild.setTimedOutUntil(application.user.id, userId, json['communication_disabled_until']);
      if (refused) return fail(apiError(refused.status, refused.code, refused.message));
      this.deps.memberUpdated(guildId, userId);
      const member = guild.members.get(userId);
      return member ? ok(memberPayload(guild, member)) : fail(apiError(404, 10007, 'Unknown Member'));
    });
    add('POST', `/guilds/${id}/soundboard-sounds`, true, ({ params: [guildId = ''], body, application }) => {
      const guild = guildOf(application, guildId);
      return guild ? createSound(guild, application.user, body.json) : unknownGuild;
    });
    add(
      'DELETE',
      `/guilds/${id}/soundboard-sounds/${id}`,
      true,
      ({ params: [guildId = '', soundId = ''], application }) => {
        const guild = guildOf(application, guildId);
        return guild ? deleteSound(guild, application.user, soundId) : unknownGuild;
      },
    );
    add('GET', `/guilds/${id}/soundboard-sounds`, true, ({ params: [guildId = ''], application }) => {
      const guild = guildOf(application, guildId);
      return guild ? ok({ items: guild.soundboardSounds.map((s) => s.object) }) : unknownGuild;
    });
    add('PATCH', `/guilds/${id}/voice-states/@me`, true, ({ params: [guildId = ''], body, application }) => {
      const guild = guildOf(application, guildId);
      if (!guild) return unknownGuild;
      const json = asObject(body.json);
      const refused = guild.editOwnVoiceState(application.user.id, {
        channelId: json['channel_id'],
        suppress: json['suppress'],
        requestToSpeakTimestamp: json['request_to_speak_timestamp'],
      });
      if (refused) return fail(apiError(refused.status, refused.code, refused.message));
      this.deps.voiceStateChanged(guildId, application.user.id);
      return { status: 204 };
    });
    add('GET', `/guilds/${id}/voice-states/${id}`, true, ({ params: [guildId = '', userId = ''], application }) => {
      const guild = guildOf(application, guildId);
      if (!guild) return unknownGuild;
      const user = userId === '@me' ? application.user.id : userId;
      const state = guild.voiceStates.get(user);
      return state ? ok(voiceStatePayload(guild, user, state)) : fail(apiError(404, 10065, 'Unknown Voice State'));
    });

    // ---- channels ----
    add('GET', `/channels/${id}`, true, ({ params: [channelId = ''], application }) => {
      const recipient = world.dmChannels.get(channelId);
      if (recipient) return ok(dmChannelPayload(channelId, recipient));
      const found = world.channelOf(application, channelId);
      return found ? ok(channelPayload(found.guild, found.channel)) : fail(apiError(404, 10003, 'Unknown Channel'));
    });
    add(
      'POST',
      `/channels/${id}/messages`,
      true,
      ({ params: [channelId = ''], body, application }) => {
        const recipient = world.dmChannels.get(channelId);
        if (recipient) return this.sendDirect(channelId, recipient, body, application.user);
        const found = world.channelOf(application, channelId);
        if (!found) return fail(apiError(404, 10003, 'Unknown Channel'));
        const json = asObject(body.json);
        const permissions = found.guild.permissionsIn(application.user.id, channelId);
        const problem =
          checkChannelPost(permissions, body.files.length > 0) ??
          checkVoiceMessagePermission(json, permissions) ??
          // No slowmode: "bots, as well as users with the permission manage_messages or manage_channel, are
          // unaffected" (Channel object, rate_limit_per_user). Members' slowmode is the bot's to respect.
          checkMessageBody(json, body.files, true);
        if (problem) return fail(problem);
        const message = messages.create(
          { channelId, guild: found.guild, author: application.user, type: 0 },
          json,
          body.files,
        );
        this.sentMessages.push({
          channelId,
          message,
          files: body.files.map(({ index: _index, ...f }) => f),
          raw: body.json,
        });
        keepLast(this.sentMessages, this.retain);
        for (const listener of [...this.messageListeners]) listener();
        return ok(message);
      },
      'channel-message',
    );
    add('PUT', `/channels/${id}/voice-status`, true, ({ params: [channelId = ''], body, application }) => {
      const found = world.channelOf(application, channelId);
      return found
        ? setVoiceStatus(found.guild, channelId, application.user.id, body.json)
        : fail(apiError(404, 10003, 'Unknown Channel'));
    });
    add('GET', `/channels/${id}/messages/${id}`, true, ({ params: [channelId = '', messageId = ''] }) => {
      const message = messages.get(messageId);
      return message && message.channel_id === channelId ? ok(message) : fail(apiError(404, 10008, 'Unknown Message'));
    });

    // ---- interactions (no bot token: the interaction token is the credential) ----
    add(
      'POST',
      `/interactions/${id}/${id}/callback`,
      false,
      ({ params: [interactionId = '', token = ''], query, body }) =>
        interactions.callback(interactionId, token, query.get('with_response') === 'true', body),
      'interaction-callback',
    );
    add(
      'POST',
      `/webhooks/${id}/${id}`,
      false,
      ({ params: [appId = '', token = ''], query, body }) =>
        interactions.webhook('POST', appId, token, undefined, query.get('wait') === 'true', body),
      'webhook-follow-up',
    );
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      add(
        method,
        `/webhooks/${id}/${id}/messages/${id}`,
        false,
        ({ params: [appId = '', token = '', messageId = ''], body }) =>
          interactions.webhook(method, appId, token, messageId, true, body),
        method === 'PATCH' ? 'webhook-edit' : undefined,
      );
    }
    return routes;
  }
}

/** Discord's answer to a channel message from a sender who may not see the channel, send, or attach (files). */
function checkChannelPost(permissions: bigint, withFiles: boolean): ApiError | undefined {
  if ((permissions & PermissionFlagsBits.ViewChannel) === 0n) return apiError(403, 50001, 'Missing Access');
  if ((permissions & PermissionFlagsBits.SendMessages) === 0n) return apiError(403, 50013, 'Missing Permissions');
  if (withFiles && (permissions & PermissionFlagsBits.AttachFiles) === 0n)
    return apiError(403, 50013, 'Missing Permissions');
  return undefined;
}

/**
 * An application's flags for the privileged intents switched on in the portal: an unverified bot's toggles show as
 * the _LIMITED flags (GATEWAY_PRESENCE_LIMITED 1 << 13, GATEWAY_GUILD_MEMBERS_LIMITED 1 << 15,
 * GATEWAY_MESSAGE_CONTENT_LIMITED 1 << 19), as Discord reports them.
 */
function applicationFlags(intents: number): number {
  return (
    ((intents & GatewayIntent.GuildPresences) !== 0 ? 1 << 13 : 0) |
    ((intents & GatewayIntent.GuildMembers) !== 0 ? 1 << 15 : 0) |
    ((intents & GatewayIntent.MessageContent) !== 0 ? 1 << 19 : 0)
  );
}
