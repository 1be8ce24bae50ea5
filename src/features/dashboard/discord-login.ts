// Discord's OAuth2 code grant with PKCE (S256), so a code issued to one browser signs no other in (RFC 9700 2.1.1).
// The access token reads the member and their servers once, then is revoked.
import { CodeChallengeMethod, OAuth2Client, OAuth2RequestError } from 'arctic';
import { z } from 'zod';

export const SCOPES = ['identify', 'guilds'];
/** A Discord response read at most this far (a user: a few hundred bytes; 200 guilds: some 60 KB). */
const MAX_RESPONSE_BYTES = 512 * 1024;
const TIMEOUT_MS = 10_000;

/** The member, as Discord says at login: an ID and a name for the page header. */
export interface DiscordIdentity {
  userId: string;
  userName: string;
  /** Discord's list of the member's servers (IDs): a hint of where to look, never a right. */
  guildIds: string[];
}

const snowflake = z.string().regex(/^\d{17,20}$/);
const UserSchema = z.object({
  id: snowflake,
  username: z.string().max(100),
  global_name: z.string().max(100).nullish(),
});
const GuildsSchema = z.array(z.object({ id: snowflake })).max(200);

/** Why a login failed, never in Discord's words (they may hold a token): an OAuth2 refusal, or Discord failing. */
export class DiscordLoginError extends Error {
  override readonly name = 'DiscordLoginError';
  readonly refused: 'code-refused' | 'discord';
  constructor(message: string, options: ErrorOptions & { refused?: 'code-refused' | 'discord' } = {}) {
    super(message, options);
    this.refused = options.refused ?? 'discord';
  }
}

export class DiscordLogin {
  readonly #client: OAuth2Client;
  readonly #authorize: string;
  readonly #api: string;
  readonly #clientId: string;
  readonly #clientSecret: string;
  readonly #redirectUri: string;

  /** `discordApi`: https://discord.com/api or DISCORD_API_BASE_URL; `redirectUri`: the dashboard's /callback. */
  constructor(clientId: string, clientSecret: string, redirectUri: string, discordApi: string) {
    this.#client = new OAuth2Client(clientId, clientSecret, redirectUri);
    this.#clientId = clientId;
    this.#clientSecret = clientSecret;
    this.#redirectUri = redirectUri;
    this.#api = `${discordApi.replace(/\/+$/, '')}/v10`;
    // The consent page is at the site's root (https://discord.com/oauth2/authorize), the API under /api.
    this.#authorize = `${new URL(discordApi).origin}/oauth2/authorize`;
  }

  /** Whether Discord accepts the client ID and secret: a bogus code is refused `invalid_client` when they are wrong. */
  async clientAccepted(): Promise<boolean> {
    const response = await fetch(`${this.#api}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${this.#clientId}:${this.#clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'saybot-doctor',
        redirect_uri: this.#redirectUri,
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status === 401) return false;
    if (response.status === 400) return true;
    throw new DiscordLoginError(`Discord answered ${response.status} to the token endpoint`);
  }

  /** Where the browser goes to log in: `state` and the S256 challenge of `codeVerifier` (both kept by the browser). */
  authorizationUrl(state: string, codeVerifier: string): string {
    const url = this.#client.createAuthorizationURLWithPKCE(
      this.#authorize,
      state,
      CodeChallengeMethod.S256,
      codeVerifier,
      SCOPES,
    );
    // Discord skips its consent page for a member who already authorised these scopes; the others see it.
    url.searchParams.set('prompt', 'none');
    return url.toString();
  }

  /** Exchanges the code with the login's verifier, reads the member and their servers, revokes the token. */
  async identify(code: string, codeVerifier: string): Promise<DiscordIdentity> {
    let accessToken: string;
    try {
      const tokens = await this.#client.validateAuthorizationCode(`${this.#api}/oauth2/token`, code, codeVerifier);
      accessToken = tokens.accessToken();
    } catch (error) {
      throw new DiscordLoginError('the code exchange was refused', {
        cause: describeCause(error),
        refused: codeRefused(error) ? 'code-refused' : 'discord',
      });
    }
    try {
      const user = UserSchema.parse(await this.#get('/users/@me', accessToken));
      const guilds = GuildsSchema.parse(await this.#get('/users/@me/guilds', accessToken));
      return {
        userId: user.id,
        userName: user.global_name ?? user.username,
        guildIds: guilds.map((guild) => guild.id),
      };
    } catch (error) {
      if (error instanceof DiscordLoginError) throw error;
      throw new DiscordLoginError('Discord answered in a shape not expected', { cause: describeCause(error) });
    } finally {
      // Best effort: the token is dropped here either way.
      await this.#client.revokeToken(`${this.#api}/oauth2/token/revoke`, accessToken).catch(() => undefined);
    }
  }

  async #get(path: string, accessToken: string): Promise<unknown> {
    const response = await fetch(`${this.#api}${path}`, {
      headers: { authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new DiscordLoginError(`Discord answered ${response.status} to ${path}`);
    }
    return JSON.parse(await readBounded(response));
  }
}

/** A response's text, refused past MAX_RESPONSE_BYTES. */
async function readBounded(response: Response): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_RESPONSE_BYTES) throw new DiscordLoginError('Discord answered with too much');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Discord's refusal of this code with this verifier (invalid_grant, invalid_request); not invalid_client. */
function codeRefused(error: unknown): boolean {
  return error instanceof OAuth2RequestError && (error.code === 'invalid_grant' || error.code === 'invalid_request');
}

/** A failure's kind only: arctic's errors may carry the response, and a response may carry a token. */
function describeCause(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
