// The dashboard as a browser meets it, without a browser: the real bot (harness.ts) with DASHBOARD_URL set, the local
// Discord's OAuth2, and an HTTP client over undici that keeps cookies as a browser does (per name; no redirects
// followed), so a test logs in as any member and makes requests with or without its session, Origin or CSRF token.
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll } from 'vitest';
import { Agent, request } from 'undici';
import type { FakeGuildSpec, FakeMemberSpec } from '@saybot/local-discord/types.ts';
import { freePort } from '@saybot/local-discord';
import { startHarness, type Harness, type HarnessOptions } from './harness.ts';
import { LOUNGE, SEOUL, SEOUL_TEXT } from './world.ts';

/** The dashboard tests' server: Seoul with one voice channel, "lounge", and these members. */
export function seoulWith(members: FakeMemberSpec[], preferredLocale = 'ko'): FakeGuildSpec {
  return {
    id: SEOUL,
    name: 'Seoul',
    preferredLocale,
    textChannelId: SEOUL_TEXT,
    voiceChannels: [{ id: LOUNGE, name: 'lounge' }],
    members,
  };
}

/** The client secret the local Discord and the bot share in these tests. */
export const CLIENT_SECRET = 'dashboard-test-secret-0123456789abcdef';

/** A port free on 127.0.0.1 now (DASHBOARD_URL must be known before the dashboard listens). */
export { freePort };

export interface DashboardHarness extends Harness {
  url: string;
  /** A new browser, from its own loopback address or the one given. */
  client(address?: string): DashboardClient;
}

/** The bot with its dashboard on, on a free port of 127.0.0.1, its /callback registered with the local Discord. */
export async function startDashboardHarness(options: HarnessOptions = {}): Promise<DashboardHarness> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const harness = await startHarness({
    ...options,
    env: {
      DASHBOARD_URL: url,
      DASHBOARD_PORT: String(port),
      DISCORD_CLIENT_SECRET: CLIENT_SECRET,
      ...options.env,
    },
    discord: { ...options.discord, oauth2: { clientSecret: CLIENT_SECRET, redirectUris: [`${url}/callback`] } },
  });
  return Object.assign(harness, { url, client: (address?: string) => new DashboardClient(harness, url, address) });
}

let nextAddress = 0;

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A browser's worth of HTTP: its own cookies, its own address, Origin sent on changes unless told otherwise. */
export class DashboardClient {
  readonly cookies = new Map<string, string>();
  readonly #harness: Harness;
  readonly url: string;
  /** This client's own address on the loopback network (127.0.0.N): the dashboard's limits per address see it. */
  readonly address: string;
  readonly #agent: Agent;

  constructor(harness: Harness, url: string, address?: string) {
    this.#harness = harness;
    this.url = url;
    nextAddress = (nextAddress % 250) + 1;
    this.address = address ?? `127.0.${Math.floor(process.pid % 250)}.${nextAddress + 1}`;
    this.#agent = new Agent({ localAddress: this.address });
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.#send('GET', path, undefined, headers);
  }

  /** A form post; `origin` defaults to the dashboard's own, `csrf` to the token of the last page read. */
  async post(
    path: string,
    fields: Record<string, string>,
    options: { origin?: string | null; csrf?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const csrf = options.csrf === undefined ? this.csrf : options.csrf;
    const body = new URLSearchParams({ ...fields, ...(csrf === null || csrf === undefined ? {} : { _csrf: csrf }) });
    const origin = options.origin === undefined ? this.url : options.origin;
    return this.#send('POST', path, body.toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      ...(origin === null ? {} : { origin }),
      ...options.headers,
    });
  }

  /** A JSON post as the pages' scripts send it: `csrf` (default: the last page's token) in X-CSRF-Token. */
  async postJson(
    path: string,
    value: unknown,
    options: { origin?: string | null; csrf?: string | null } = {},
  ): Promise<Answer> {
    const csrf = options.csrf === undefined ? this.csrf : options.csrf;
    const origin = options.origin === undefined ? this.url : options.origin;
    return this.#send('POST', path, JSON.stringify(value), {
      'content-type': 'application/json',
      ...(origin === null ? {} : { origin }),
      ...(csrf === null || csrf === undefined ? {} : { 'x-csrf-token': csrf }),
    });
  }

  /** A multipart post with one file (an import). */
  async upload(path: string, file: { name: string; content: string }): Promise<Answer> {
    const form = new FormData();
    form.set('_csrf', this.csrf ?? '');
    form.set('file', new Blob([file.content], { type: 'application/json' }), file.name);
    const encoded = new Response(form);
    const bytes = Buffer.from(await encoded.arrayBuffer());
    return this.#send('POST', path, bytes, {
      'content-type': encoded.headers.get('content-type') ?? '',
      origin: this.url,
    });
  }

  /** The CSRF token the last page carried. */
  csrf: string | undefined;

  /**
   * Logs in as `userId` through /login, the local Discord's code (as if Authorize was clicked on the URL /login gave,
   * its PKCE challenge included) and /callback.
   */
  async login(userId: string): Promise<Answer> {
    const start = await this.get('/login');
    const authorize = new URL(String(start.headers['location'])).searchParams;
    const state = authorize.get('state') ?? '';
    const challenge = authorize.get('code_challenge');
    const code = this.#harness.discord.oauth2.issueCode({
      userId,
      redirectUri: `${this.url}/callback`,
      scopes: ['identify', 'guilds'],
      ...(challenge === null ? {} : { codeChallenge: challenge }),
    });
    const back = await this.get(`/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`);
    if (back.status === 303) await this.get('/');
    return back;
  }

  async #send(
    method: string,
    path: string,
    body: string | Buffer | undefined,
    headers: Record<string, string>,
  ): Promise<Answer> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await request(`${this.url}${path}`, {
      method: method as 'GET',
      body,
      dispatcher: this.#agent,
      headers: { ...(cookie === '' ? {} : { cookie }), 'accept-language': 'en-US', ...headers },
    });
    const text = await response.body.text();
    const setCookie = response.headers['set-cookie'];
    for (const line of setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie]) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
    if (token !== undefined) this.csrf = token;
    return { status: response.statusCode, headers: response.headers, body: text };
  }
}

/** A new browser's worth of HTTP logged in as `userId`, having read `path` (so it holds that page's CSRF token). */
export async function signedIn(h: DashboardHarness, userId: string, path: string): Promise<DashboardClient> {
  const client = h.client();
  await client.login(userId);
  await client.get(path);
  return client;
}

/** A manager (Manage Server) and a plain member of the dashboard tests' server, and any others. */
export function managerAndMember(
  manager: FakeMemberSpec,
  member: FakeMemberSpec,
  others: FakeMemberSpec[] = [],
): FakeMemberSpec[] {
  return [{ ...manager, permissions: PermissionFlagsBits.ManageGuild }, member, ...others];
}

/**
 * One dashboard harness for the suite (or describe block) that calls this: started before its tests, closed after
 * them. Read it only inside a test or a later hook.
 */
export function useDashboard(options: HarnessOptions): DashboardHarness {
  let harness: DashboardHarness | undefined;
  beforeAll(async () => {
    harness = await startDashboardHarness(options);
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });
  return new Proxy({} as DashboardHarness, {
    get(_, property) {
      if (harness === undefined) throw new Error('the dashboard harness is made in a hook: read it inside a test');
      const value: unknown = Reflect.get(harness, property, harness);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(harness) : value;
    },
  });
}
