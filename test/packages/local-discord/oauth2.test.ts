// The local Discord's OAuth2 (a website's "Log in with Discord"), over real HTTP as a dashboard's server and a
// browser would use it: the authorize URL's checks, the consent page's form, the code exchange and its errors as
// Discord sends them, the Bearer routes a dashboard reads, refresh and revocation.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionFlagsBits } from 'discord.js';
import { FakeDiscord } from '@saybot/local-discord';
import { APP_ID, TOKEN, guildSpec } from './helpers.ts';

const g1 = guildSpec(1);
const ALICE = g1.members[0]!; // @everyone's permissions only, locale ko
const BOB = g1.members[1]!; // Manage Server through a role
const OWNER = { id: '220000000000000001', username: 'olivia' };
const REDIRECT = 'http://127.0.0.1:9/auth/callback';
const STRANGER_GUILD = {
  id: '150000000000000001',
  name: 'No SayBot here',
  ownerId: ALICE.id,
  members: [{ id: ALICE.id }],
};

let fake: FakeDiscord;
beforeAll(async () => {
  fake = await FakeDiscord.start({
    token: TOKEN,
    applicationId: APP_ID,
    guilds: [{ ...g1, members: [...g1.members, OWNER], ownerId: OWNER.id }],
    oauth2: { clientSecret: 'the-client-secret', redirectUris: [REDIRECT], otherGuilds: [STRANGER_GUILD] },
    log: () => undefined,
  });
});
afterAll(() => fake?.close());

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const withSecret = (fields: Record<string, string>) =>
  form({ client_id: APP_ID, client_secret: 'the-client-secret', ...fields });
const exchange = (code: string, redirectUri = REDIRECT) =>
  fetch(fake.oauth2.tokenUrl, withSecret({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }));
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** Opens the consent page (as a browser would, with the given cookie) and submits it: the redirect's URL. */
async function consent(
  authorizeUrl: string,
  action: 'authorize' | 'cancel',
  userId: string,
  cookie = '',
): Promise<{ location: URL; setCookie: string | null }> {
  const page = await fetch(authorizeUrl, { headers: { cookie } });
  expect(page.status).toBe(200);
  const html = await page.text();
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
  expect(request).toBeDefined();
  const answer = await fetch(`${new URL(authorizeUrl).origin}/oauth2/authorize`, {
    ...form({ request: request!, user_id: userId, action }),
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return { location: new URL(answer.headers.get('location')!), setCookie: answer.headers.get('set-cookie') };
}

describe('the local Discord: OAuth2 login as Discord does it', () => {
  it('authorize: the consent page lists what the scopes allow, with no script allowed, and Authorize redirects with a code and the state', async () => {
    const state = 'st&te with "odd" <chars>';
    const url = fake.oauth2.authorizationUrl({ redirectUri: REDIRECT, state });
    const page = await fetch(url);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain('Know what servers you&#39;re in');
    expect(html).toContain('Access your username, avatar, and banner');
    expect(html).not.toContain('<script');
    const { location } = await consent(url, 'authorize', BOB.id);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe(state);
    expect(location.searchParams.get('code')).toMatch(/^[\w-]{20,}$/);
  });

  it('Cancel redirects with error=access_denied and the state, and no code', async () => {
    const { location } = await consent(
      fake.oauth2.authorizationUrl({ redirectUri: REDIRECT, state: 's1' }),
      'cancel',
      BOB.id,
    );
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('s1');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('an unregistered redirect_uri or an unknown client_id gets an error page, never a redirect', async () => {
    for (const url of [
      fake.oauth2.authorizationUrl({ redirectUri: 'http://127.0.0.1:9/auth/callback/', state: 's' }),
      fake.oauth2.authorizationUrl({ redirectUri: 'http://evil.invalid/cb', state: 's' }),
      fake.oauth2.authorizationUrl({ redirectUri: REDIRECT }).replace(APP_ID, '300000000000000009'),
    ]) {
      const answer = await fetch(url, { redirect: 'manual' });
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
    }
  });

  it('a bad response_type or scope goes back to the registered redirect with Discord’s error', async () => {
    const url = new URL(fake.oauth2.authorizationUrl({ redirectUri: REDIRECT, state: 's2' }));
    url.searchParams.set('scope', 'identify guilds bot');
    const scoped = await fetch(url, { redirect: 'manual' });
    expect(new URL(scoped.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
    url.searchParams.set('scope', 'identify');
    url.searchParams.set('response_type', 'token');
    const typed = await fetch(url, { redirect: 'manual' });
    const back = new URL(typed.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('unsupported_response_type');
    expect(back.searchParams.get('state')).toBe('s2');
  });

  it('the token exchange: Discord’s token response, then /users/@me and /users/@me/guilds with the Bearer token', async () => {
    const code = fake.oauth2.issueCode({ userId: ALICE.id, redirectUri: REDIRECT });
    const answer = await exchange(code);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const tokens = (await answer.json()) as Record<string, unknown>;
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 604800, scope: 'identify guilds' });
    expect(typeof tokens.refresh_token).toBe('string');

    const me = (await (
      await fetch(`${fake.oauth2.apiUrl}/v10/users/@me`, bearer(String(tokens.access_token)))
    ).json()) as Record<string, unknown>;
    expect(me).toMatchObject({
      id: ALICE.id,
      username: ALICE.username,
      global_name: ALICE.username,
      avatar: null,
      locale: 'ko',
    });
    expect(me).not.toHaveProperty('email');
    expect(me).not.toHaveProperty('bot');

    const guilds = (await (
      await fetch(`${fake.oauth2.apiUrl}/users/@me/guilds`, bearer(String(tokens.access_token)))
    ).json()) as Array<Record<string, unknown>>;
    // Sorted by ID: the one with SayBot (@everyone's permissions only) and the one without it (she owns it).
    expect(guilds.map((g) => g.id)).toEqual([g1.id, STRANGER_GUILD.id]);
    expect(guilds[1]).toMatchObject({ name: STRANGER_GUILD.name, owner: true, icon: null, features: [] });
    expect(guilds[0]).toMatchObject({ name: g1.name, owner: false });
    const permissions = BigInt(guilds[0]!.permissions as string);
    expect(typeof guilds[0]!.permissions).toBe('string');
    expect(permissions & PermissionFlagsBits.ManageGuild).toBe(0n);
    expect(permissions & PermissionFlagsBits.ViewChannel).toBe(PermissionFlagsBits.ViewChannel);
  });

  it('permissions in the guild list: Manage Server from a role, everything for the owner', async () => {
    const guildsOf = async (userId: string) => {
      const tokens = (await (await exchange(fake.oauth2.issueCode({ userId, redirectUri: REDIRECT }))).json()) as {
        access_token: string;
      };
      const list = (await (
        await fetch(`${fake.oauth2.apiUrl}/users/@me/guilds`, bearer(tokens.access_token))
      ).json()) as Array<Record<string, unknown>>;
      return list.find((g) => g.id === g1.id)!;
    };
    const bob = await guildsOf(BOB.id);
    expect(BigInt(bob.permissions as string) & PermissionFlagsBits.ManageGuild).toBe(PermissionFlagsBits.ManageGuild);
    expect(bob.owner).toBe(false);
    const owner = await guildsOf(OWNER.id);
    expect(owner.owner).toBe(true);
    expect(BigInt(owner.permissions as string) & PermissionFlagsBits.Administrator).toBe(
      PermissionFlagsBits.Administrator,
    );
  });

  it('a code works once and for 100 s; a replayed code revokes the tokens it bought', async () => {
    const code = fake.oauth2.issueCode({ userId: BOB.id, redirectUri: REDIRECT });
    const first = (await (await exchange(code)).json()) as { access_token: string };
    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
    expect((await fetch(`${fake.oauth2.apiUrl}/users/@me`, bearer(first.access_token))).status).toBe(401);

    const late = fake.oauth2.issueCode({ userId: BOB.id, redirectUri: REDIRECT });
    fake.advanceClock(101_000);
    expect(await (await exchange(late)).json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('the exchange refuses a different redirect_uri, a wrong secret (401, also by Basic), JSON and unknown grant types', async () => {
    const code = fake.oauth2.issueCode({ userId: BOB.id, redirectUri: REDIRECT });
    const wrongUri = await exchange(code, `${REDIRECT}?x=1`);
    expect(wrongUri.status).toBe(400);
    expect(await wrongUri.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid "redirect_uri" in request.',
    });

    const badSecret = await fetch(
      fake.oauth2.tokenUrl,
      form({
        client_id: APP_ID,
        client_secret: 'nope',
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
      }),
    );
    expect(badSecret.status).toBe(401);
    expect(await badSecret.json()).toEqual({ error: 'invalid_client' });

    const basic = (secret: string) => ({
      ...form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${APP_ID}:${secret}`).toString('base64')}`,
      },
    });
    expect((await fetch(fake.oauth2.tokenUrl, basic('nope'))).status).toBe(401);

    const json = await fetch(fake.oauth2.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic('the-client-secret').headers.authorization },
      body: JSON.stringify({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }),
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: 'unsupported_grant_type' });
    expect((await fetch(fake.oauth2.tokenUrl, withSecret({ grant_type: 'password' }))).status).toBe(400);

    // The code survived all of that: Basic with the right secret on the v10 path works.
    const good = await fetch(`${fake.oauth2.apiUrl}/v10/oauth2/token`, basic('the-client-secret'));
    expect(good.status).toBe(200);
    // The log names routes and errors, never a code, token or secret.
    expect(JSON.stringify(fake.oauth2.requests)).not.toMatch(/the-client-secret|nope/);
    expect(JSON.stringify(fake.oauth2.requests)).not.toContain(code);
  });

  it('Bearer routes: 401 as Discord for no token, a wrong one, or a scope not granted; a bot token still reaches the bot’s own /users/@me', async () => {
    const unauthorized = { message: '401: Unauthorized', code: 0 };
    const none = await fetch(`${fake.oauth2.apiUrl}/users/@me/guilds`, bearer('not-a-token'));
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual(unauthorized);
    const identifyOnly = (await (
      await exchange(fake.oauth2.issueCode({ userId: BOB.id, redirectUri: REDIRECT, scopes: ['identify'] }))
    ).json()) as { access_token: string };
    const guilds = await fetch(`${fake.oauth2.apiUrl}/users/@me/guilds`, bearer(identifyOnly.access_token));
    expect(guilds.status).toBe(401);
    expect(await guilds.json()).toEqual(unauthorized);
    const bot = (await (
      await fetch(`${fake.restUrl}/v10/users/@me`, { headers: { authorization: `Bot ${TOKEN}` } })
    ).json()) as { id: string; bot: boolean };
    expect(bot).toMatchObject({ id: APP_ID, bot: true });
  });

  it('refresh gives new tokens once; revoking one token revokes the whole authorization', async () => {
    const tokens = (await (
      await exchange(fake.oauth2.issueCode({ userId: BOB.id, redirectUri: REDIRECT }))
    ).json()) as { access_token: string; refresh_token: string };
    const refreshed = await fetch(
      fake.oauth2.tokenUrl,
      withSecret({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
    );
    expect(refreshed.status).toBe(200);
    const fresh = (await refreshed.json()) as { access_token: string };
    const reused = await fetch(
      fake.oauth2.tokenUrl,
      withSecret({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
    );
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });

    expect((await fetch(fake.oauth2.revokeUrl, form({ token: fresh.access_token }))).status).toBe(401);
    const revoked = await fetch(
      fake.oauth2.revokeUrl,
      withSecret({ token: fresh.access_token, token_type_hint: 'access_token' }),
    );
    expect(revoked.status).toBe(200);
    expect((await fetch(`${fake.oauth2.apiUrl}/users/@me`, bearer(fresh.access_token))).status).toBe(401);
    expect((await fetch(`${fake.oauth2.apiUrl}/users/@me`, bearer(tokens.access_token))).status).toBe(401);
    expect(fake.oauth2.liveTokens(BOB.id)).toBe(0);
  });

  it('who is signed in: signIn() preselects the chooser; prompt=none skips the page only for what the user already authorized', async () => {
    fake.oauth2.signIn(BOB.id);
    const url = fake.oauth2.authorizationUrl({
      redirectUri: REDIRECT,
      state: 'p',
      scopes: ['identify', 'guilds', 'email'],
      prompt: 'none',
    });
    // Bob has authorized identify and guilds before, never email: the page is shown, with him preselected.
    const page = await (await fetch(url, { redirect: 'manual' })).text();
    expect(page).toMatch(new RegExp(`<option value="${BOB.id}" selected>`));

    // Alice authorizes in her own browser: its cookie signs her in there, whatever signIn() says.
    const { setCookie } = await consent(
      fake.oauth2.authorizationUrl({ redirectUri: REDIRECT, state: 'a' }),
      'authorize',
      ALICE.id,
    );
    const cookie = setCookie!.split(';')[0]!;
    const silent = await fetch(fake.oauth2.authorizationUrl({ redirectUri: REDIRECT, state: 'q', prompt: 'none' }), {
      headers: { cookie },
      redirect: 'manual',
    });
    expect(silent.status).toBe(302);
    const back = new URL(silent.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe('q');
    const tokens = (await (await exchange(back.searchParams.get('code')!)).json()) as { access_token: string };
    const me = (await (await fetch(`${fake.oauth2.apiUrl}/users/@me`, bearer(tokens.access_token))).json()) as {
      id: string;
    };
    expect(me.id).toBe(ALICE.id);

    // The demo's way: a manager pre-authorized and signed in is logged in with no page at all.
    fake.oauth2.preauthorize(OWNER.id);
    fake.oauth2.signIn(OWNER.id);
    const demo = await fetch(fake.oauth2.authorizationUrl({ redirectUri: REDIRECT, prompt: 'none' }), {
      redirect: 'manual',
    });
    expect(demo.status).toBe(302);
    expect(new URL(demo.headers.get('location')!).searchParams.has('code')).toBe(true);
    fake.oauth2.signIn(null);
  });

  it('signInBrowser: the pre-approved sign-in goes to the one browser holding its cookie, once and while fresh', async () => {
    fake.oauth2.signIn(null);
    fake.oauth2.preauthorize(OWNER.id);
    const { setCookie } = fake.oauth2.signInBrowser(OWNER.id);
    const handed = setCookie.split(';')[0]!;
    expect(setCookie).toMatch(/; HttpOnly; SameSite=Lax$/);
    expect(setCookie).not.toMatch(/Domain=/i);
    const login = (cookie: string) =>
      fetch(fake.oauth2.authorizationUrl({ redirectUri: REDIRECT, state: 's', prompt: 'none' }), {
        headers: { cookie },
        redirect: 'manual',
      });
    // Another client, without it or with a guessed one, gets the consent page with nobody preselected.
    for (const cookie of ['', `${handed.split('=')[0]}=guessed`]) {
      const other = await login(cookie);
      expect(other.status).toBe(200);
      expect(await other.text()).not.toMatch(/selected>/);
    }
    // The browser it was handed to is signed in as her and comes straight back with a code.
    const mine = await login(handed);
    expect(mine.status).toBe(302);
    const code = new URL(mine.headers.get('location')!).searchParams.get('code')!;
    const tokens = (await (await exchange(code)).json()) as { access_token: string };
    const me = (await (await fetch(`${fake.oauth2.apiUrl}/users/@me`, bearer(tokens.access_token))).json()) as {
      id: string;
    };
    expect(me.id).toBe(OWNER.id);
    // It stays signed in there (the local Discord's own cookie); the handed one is spent.
    const browser = mine.headers
      .getSetCookie()
      .find((c) => c.startsWith('local_discord_browser='))!
      .split(';')[0]!;
    expect((await login(browser)).status).toBe(302);
    expect((await login(handed)).status).toBe(200);
    // One not taken within its minute (Discord's clock) is worth nothing.
    const late = fake.oauth2.signInBrowser(OWNER.id).setCookie.split(';')[0]!;
    fake.advanceClock(61_000);
    expect((await login(late)).status).toBe(200);
  });

  it('PKCE as Discord has it: S256 only, and the code is exchanged only with its code_verifier', async () => {
    const verifier = 'a-verifier-of-at-least-forty-three-characters-0123456789';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const withChallenge = (method: string | undefined) => {
      const url = new URL(fake.oauth2.authorizationUrl({ redirectUri: REDIRECT, state: 'pk' }));
      url.searchParams.set('code_challenge', challenge);
      if (method !== undefined) url.searchParams.set('code_challenge_method', method);
      return url.toString();
    };
    // Discord supports S256 alone: plain, or no method (RFC 7636's default, plain), goes back refused.
    for (const method of ['plain', undefined]) {
      const refused = await fetch(withChallenge(method), { redirect: 'manual' });
      expect(refused.status).toBe(302);
      const back = new URL(refused.headers.get('location')!).searchParams;
      expect([back.get('error'), back.get('error_description'), back.get('state'), back.has('code')]).toEqual([
        'invalid_request',
        'Unsupported "code_challenge_method"',
        'pk',
        false,
      ]);
    }
    const { location } = await consent(withChallenge('S256'), 'authorize', BOB.id);
    const code = location.searchParams.get('code')!;
    const exchangeWith = (codeVerifier?: string) =>
      fetch(
        fake.oauth2.tokenUrl,
        withSecret({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          ...(codeVerifier !== undefined ? { code_verifier: codeVerifier } : {}),
        }),
      );
    const without = await exchangeWith();
    expect(without.status).toBe(400);
    expect(await without.json()).toEqual({ error: 'invalid_request', error_description: 'Missing "code_verifier"' });
    // Another login's verifier (well formed, not this code's), and one too short: the same answer, the code unspent.
    for (const wrong of [`${verifier}x`, 'short']) {
      const answer = await exchangeWith(wrong);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ error: 'invalid_request', error_description: 'Invalid "code_verifier"' });
    }
    expect((await exchangeWith(verifier)).status).toBe(200);
    // issueCode takes the challenge a website's URL carried, for tests without the consent page.
    const issued = fake.oauth2.issueCode({ userId: BOB.id, redirectUri: REDIRECT, codeChallenge: challenge });
    expect((await exchange(issued)).status).toBe(400);
  });

  it('PKCE downgrade (RFC 9700 2.1.1): a code issued without a code_challenge is refused with a code_verifier, and spent', async () => {
    // An attacker strips the challenge from their own login's address and brings the victim's code to their
    // callback, which sends its verifier: the code was bound to no challenge, so no verifier may redeem it.
    const verifier = 'a-verifier-of-at-least-forty-three-characters-0123456789';
    const live = fake.oauth2.liveTokens(BOB.id);
    const code = fake.oauth2.issueCode({ userId: BOB.id, redirectUri: REDIRECT });
    const body = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT };
    const injected = await fetch(fake.oauth2.tokenUrl, withSecret({ ...body, code_verifier: verifier }));
    expect(injected.status).toBe(400);
    expect(await injected.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid "code_verifier": the code was issued without a "code_challenge"',
    });
    // A code seen in an injection is spent: nothing it could buy is bought afterwards.
    expect((await fetch(fake.oauth2.tokenUrl, withSecret(body))).status).toBe(400);
    expect(fake.oauth2.liveTokens(BOB.id)).toBe(live);
  });

  it('failNext: Discord down at the exchange answers 503 and keeps the code, which then works once', async () => {
    const code = fake.oauth2.issueCode({ userId: BOB.id, redirectUri: REDIRECT });
    fake.oauth2.failNext('token', 503);
    expect((await exchange(code)).status).toBe(503);
    fake.oauth2.failNext('token', 429);
    const limited = await exchange(code);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ retry_after: 1, global: false });
    expect((await exchange(code)).status).toBe(200);
  });

  it('a consent form is answered once; one past its time or unknown gets an error page', async () => {
    const html = await (await fetch(fake.oauth2.authorizationUrl({ redirectUri: REDIRECT }))).text();
    const request = /name="request" value="([^"]+)"/.exec(html)![1]!;
    const submit = () =>
      fetch(`${new URL(fake.oauth2.authorizeUrl).origin}/oauth2/authorize`, {
        ...form({ request, user_id: BOB.id, action: 'authorize' }),
        redirect: 'manual',
      });
    expect((await submit()).status).toBe(302);
    expect((await submit()).status).toBe(400);
  });
});

describe("the local Discord's consent page as Discord's (consentAs 'signed-in'): one authorizes as oneself only", () => {
  let own: FakeDiscord;
  beforeAll(async () => {
    own = await FakeDiscord.start({
      token: TOKEN,
      applicationId: APP_ID,
      guilds: [{ ...g1, members: [...g1.members, OWNER], ownerId: OWNER.id }],
      oauth2: { redirectUris: [REDIRECT], consentAs: 'signed-in' },
      log: () => undefined,
    });
  });
  afterAll(() => own?.close());

  /** The consent page as a browser with `cookie` gets it: its form's request, whom it offers, the cookie it sets. */
  const page = async (cookie: string) => {
    const shown = await fetch(own.oauth2.authorizationUrl({ redirectUri: REDIRECT }), { headers: { cookie } });
    const html = await shown.text();
    return {
      request: /name="request" value="([^"]+)"/.exec(html)![1]!,
      offered: [...html.matchAll(/<option value="(\d+)"/g)].map((m) => m[1]),
      browser: shown.headers
        .getSetCookie()
        .find((c) => c.startsWith('local_discord_browser='))
        ?.split(';')[0],
    };
  };
  const answer = (request: string, userId: string) =>
    fetch(`${new URL(own.oauth2.authorizeUrl).origin}/oauth2/authorize`, {
      ...form({ request, user_id: userId, action: 'authorize' }),
      redirect: 'manual',
    });

  it('offers a browser with nobody signed in no one, and refuses the form sent as anyone', async () => {
    const { request, offered } = await page('');
    expect(offered).toEqual([]);
    const forged = await answer(request, OWNER.id);
    expect(forged.status).toBe(403);
    expect(forged.headers.get('location')).toBeNull();
  });

  it('offers the browser signed in as her alone, and authorizes her, not another', async () => {
    const handed = own.oauth2.signInBrowser(OWNER.id).setCookie.split(';')[0]!;
    const first = await page(handed);
    expect(first.offered).toEqual([OWNER.id]);
    expect((await answer(first.request, ALICE.id)).status).toBe(403);
    // The browser stays signed in as her (its own cookie): its next consent page authorizes her.
    const again = await page(first.browser!);
    expect(again.offered).toEqual([OWNER.id]);
    const authorized = await answer(again.request, OWNER.id);
    expect(authorized.status).toBe(302);
    expect(new URL(authorized.headers.get('location')!).searchParams.has('code')).toBe(true);
  });
});

describe('the local Discord: a user stays a Discord user when SayBot leaves the only server they share', () => {
  let lone: FakeDiscord;
  beforeAll(async () => {
    lone = await FakeDiscord.start({
      token: TOKEN,
      applicationId: APP_ID,
      guilds: [{ ...g1, members: [...g1.members, OWNER], ownerId: OWNER.id }],
      oauth2: { clientSecret: 'the-client-secret', redirectUris: [REDIRECT] },
      log: () => undefined,
    });
  });
  afterAll(() => lone?.close());

  it('after the bot left, the owner still logs in, and their server (which they still own) is still in their list', async () => {
    lone.removeBot(g1.id);
    const code = lone.oauth2.issueCode({ userId: OWNER.id, redirectUri: REDIRECT });
    const answer = await fetch(
      lone.oauth2.tokenUrl,
      withSecret({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }),
    );
    expect(answer.status).toBe(200);
    const token = String(((await answer.json()) as Record<string, unknown>).access_token);
    const me = (await (await fetch(`${lone.oauth2.apiUrl}/users/@me`, bearer(token))).json()) as Record<
      string,
      unknown
    >;
    expect(me).toMatchObject({ id: OWNER.id, username: OWNER.username });
    const guilds = (await (await fetch(`${lone.oauth2.apiUrl}/users/@me/guilds`, bearer(token))).json()) as Array<
      Record<string, unknown>
    >;
    expect(guilds).toEqual([expect.objectContaining({ id: g1.id, name: g1.name, owner: true })]);

    // The consent page still offers them, and a member too.
    lone.oauth2.signIn(ALICE.id);
    const page = await fetch(lone.oauth2.authorizationUrl({ redirectUri: REDIRECT, state: 's' }));
    const html = await page.text();
    expect(html).toContain(OWNER.username);
    expect(html).toContain(ALICE.username);

    // Back in the server, one record: the guild the bot rejoins is the one its members kept.
    lone.addBotBack(g1.id);
    const after = (await (await fetch(`${lone.oauth2.apiUrl}/users/@me/guilds`, bearer(token))).json()) as Array<
      Record<string, unknown>
    >;
    expect(after).toEqual([expect.objectContaining({ id: g1.id, owner: true })]);
  });
});
