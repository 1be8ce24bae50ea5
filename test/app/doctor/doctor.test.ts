import { describe, expect, it } from 'vitest';
import { checkEngines, checkNode, formatResults, runChecks } from '../../../src/app/doctor/checks.ts';
import { checkFreeVoice } from '../../../src/app/doctor/free-voice-check.ts';
import { loadConfig } from '../../../src/core/config.ts';
import { FakeEngine, speechHandler, voicevoxHandler } from '../../core/engines/fake-engine.ts';
import { addHelpers, APP_ID, fakeToken, startLocalServices } from '../../support/harness.ts';
import { useLocalServices } from '../../support/local-services.ts';

const local = useLocalServices();

const env = (over: Record<string, string> = {}) => ({
  DISCORD_TOKEN: local.token,
  DISCORD_CLIENT_ID: APP_ID,
  DISCORD_API_BASE_URL: local.discord.restUrl,
  VOICE_API_BASE_URL: local.sandbox.url,
  VOICE_API_KEY: local.sandbox.testKey,
  ...over,
});

describe('npm run doctor', () => {
  it('passes every check on a good set-up, spending no characters', async () => {
    const results = await runChecks(env());
    expect(results.map((r) => r.name)).toEqual([
      'Node.js',
      'Opus encoder',
      'Voice encryption',
      'Configuration',
      'Discord token',
      'Message Content intent',
      'Public Bot',
      'Voice API',
      'Free voice',
      'Dashboard',
    ]);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(results.find((r) => r.name === 'Voice API')?.detail).toMatch(
      /key accepted; 300,000 characters left this month/,
    );
    expect(results.find((r) => r.name === 'Opus encoder')?.detail).toBe('@discordjs/opus (native)');
    expect(local.sandbox.charactersBilled()).toBe(0);
    expect(formatResults(results)).toMatch(/All checks passed\.$/);
  });

  it("checks the dashboard's client secret with Discord and names the redirect URL, never printing the secret", async () => {
    const on = {
      DASHBOARD_URL: 'https://saybot.example.org',
      DISCORD_CLIENT_SECRET: local.discord.oauth2.clientSecret,
    };
    const good = (await runChecks(env(on))).find((r) => r.name === 'Dashboard');
    expect(good).toMatchObject({ ok: true });
    expect(good?.detail).toContain('add https://saybot.example.org/callback to OAuth2 > Redirects');
    const wrongSecret = 'not-the-client-secret-0123456789';
    const results = await runChecks(env({ ...on, DISCORD_CLIENT_SECRET: wrongSecret }));
    expect(results.find((r) => r.name === 'Dashboard')).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/Discord refused DISCORD_CLIENT_SECRET/),
    });
    expect(formatResults(results)).not.toContain(wrongSecret);
    const http = await runChecks(env({ ...on, DASHBOARD_URL: 'http://saybot.example.org' }));
    expect(formatResults(http)).toContain('DASHBOARD_URL must use https:// outside localhost');
    expect((await runChecks(env())).find((r) => r.name === 'Dashboard')?.detail).toBe(
      'off (set DASHBOARD_URL to serve it)',
    );
  });

  it('says plainly when the Discord token or the Voice API key is refused, without printing them', async () => {
    const badToken = fakeToken();
    const key = local.sandbox.addKey({ plan: 'creator', active: false });
    const results = await runChecks(env({ DISCORD_TOKEN: badToken, VOICE_API_KEY: key }));
    const text = formatResults(results);
    expect(text).toContain('✗ Discord token: Discord refused DISCORD_TOKEN: reset the token');
    expect(text).toContain('✗ Voice API: the service rejected VOICE_API_KEY (invalid or deactivated)');
    expect(text).toMatch(/2 check\(s\) failed/);
    expect(text).not.toContain(badToken);
    expect(text).not.toContain(key);
  });

  it('names a plan without API access and an unreachable service', async () => {
    const free = local.sandbox.addKey({ plan: 'free' });
    const plan = await runChecks(env({ VOICE_API_KEY: free }));
    expect(plan.find((r) => r.name === 'Voice API')?.detail).toMatch(/no API access: a Creator plan or higher/);
    const down = await runChecks(env({ VOICE_API_BASE_URL: 'http://127.0.0.1:9' }));
    expect(down.find((r) => r.name === 'Voice API')).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/could not use http:\/\/127\.0\.0\.1:9/),
    });
  });

  it('says Message Content is enabled when the portal switch is on (the application flags)', async () => {
    const results = await runChecks(env());
    expect(results.find((r) => r.name === 'Message Content intent')).toEqual({
      name: 'Message Content intent',
      ok: true,
      detail: 'enabled: auto-read (/autoread) can read chat',
    });
  });

  it('warns, without failing, where to enable Message Content when it is off', async () => {
    const off = await startLocalServices({ discord: { allowedPrivilegedIntents: 0 } });
    try {
      const results = await runChecks(env({ DISCORD_TOKEN: off.token, DISCORD_API_BASE_URL: off.discord.restUrl }));
      const check = results.find((r) => r.name === 'Message Content intent');
      expect(check).toMatchObject({ ok: true, warn: true });
      expect(check?.detail).toMatch(
        /not enabled: SayBot runs without auto-read.*Bot > Privileged Gateway Intents > Message Content/,
      );
      expect(formatResults(results)).toContain('! Message Content intent: not enabled');
      expect(results.every((r) => r.ok)).toBe(true);
    } finally {
      await off.close();
    }
  });

  it('fails a Public Bot with no ALLOWED_GUILDS, naming both fixes; passes it with a list', async () => {
    const open = await startLocalServices({ discord: { botPublic: true } });
    try {
      const at = { DISCORD_TOKEN: open.token, DISCORD_API_BASE_URL: open.discord.restUrl };
      const results = await runChecks(env(at));
      const check = results.find((r) => r.name === 'Public Bot');
      expect(check?.ok).toBe(false);
      expect(check?.detail).toMatch(/Public Bot.*Developer Portal.*Bot > Public Bot.*ALLOWED_GUILDS/);
      expect(formatResults(results)).toMatch(/✗ Public Bot: .*\n.*1 check\(s\) failed/s);
      const listed = await runChecks(env({ ...at, ALLOWED_GUILDS: '200000000000000001' }));
      expect(listed.find((r) => r.name === 'Public Bot')).toMatchObject({
        ok: true,
        detail: expect.stringContaining('only the 1 server(s) in ALLOWED_GUILDS'),
      });
    } finally {
      await open.close();
    }
  });

  it('names the servers SayBot is in that ALLOWED_GUILDS lacks, and the listed ones it is not in', async () => {
    // The local Discord's default world: SayBot is in Seoul (…001) and London (…002); London's ID is mistyped.
    const typo = '200000000000000020';
    const results = await runChecks(env({ ALLOWED_GUILDS: `200000000000000001,${typo}` }));
    const servers = results.find((r) => r.name === 'Servers');
    expect(servers).toMatchObject({ ok: true, warn: true });
    expect(servers?.detail).toContain('London (200000000000000002)');
    expect(servers?.detail).not.toContain('Seoul');
    expect(servers?.detail).toContain(typo);
    expect(servers?.detail).toMatch(/serves none of them and leaves none.*ALLOWED_GUILDS_LEAVE=1/);
    // Confirmed, the same list would make SayBot leave London at its next start: a failure to look at first.
    const confirmed = await runChecks(env({ ALLOWED_GUILDS: `200000000000000001,${typo}`, ALLOWED_GUILDS_LEAVE: '1' }));
    expect(confirmed.find((r) => r.name === 'Servers')).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/will leave.*London \(200000000000000002\)/),
    });
    const right = await runChecks(env({ ALLOWED_GUILDS: '200000000000000001,200000000000000002' }));
    expect(right.find((r) => r.name === 'Servers')).toEqual({
      name: 'Servers',
      ok: true,
      detail: 'SayBot is in 2 server(s), every one of them in ALLOWED_GUILDS',
    });
    // Without a list there is nothing to compare.
    expect((await runChecks(env())).map((r) => r.name)).not.toContain('Servers');
  });

  it('does not ask for the intent with a token Discord refused', async () => {
    const results = await runChecks(env({ DISCORD_TOKEN: fakeToken() }));
    expect(results.map((r) => r.name)).not.toContain('Message Content intent');
  });

  it('reports configuration problems instead of going further', async () => {
    const results = await runChecks({ DISCORD_CLIENT_ID: 'x' });
    expect(results.at(-1)).toMatchObject({ name: 'Configuration', ok: false });
    expect(results.at(-1)?.detail).toContain('DISCORD_TOKEN is required');
  });

  it('says a configuration problem once, however many entries share it', async () => {
    const results = await runChecks({ DISCORD_TOKEN: fakeToken(), DISCORD_CLIENT_ID: APP_ID, FREE_VOICES: ',' });
    const detail = results.find((r) => r.name === 'Configuration')?.detail ?? '';
    expect(detail.match(/FREE_VOICES must be/g)).toHaveLength(1);
  });

  it('the free voice line says what speaks where FREE_VOICES names a voice its engine does not offer', async () => {
    const [voicevox, speech] = [await FakeEngine.start(), await FakeEngine.start()];
    voicevox.handler = voicevoxHandler();
    speech.handler = speechHandler();
    try {
      const results = await runChecks(
        env({
          VOICEVOX_URL: voicevox.url,
          SPEECH_SERVER_URL: `${speech.url}/v1`,
          FREE_VOICES: 'ja=voicevox:999,en=speech:nobody,ko=voicevox:3',
        }),
      );
      expect(results.find((r) => r.name === 'VOICEVOX engine')?.detail).toContain('(ja=voicevox:999)');
      const free = results.find((r) => r.name === 'Free voice');
      expect(free).toMatchObject({ ok: true, warn: true });
      expect(free?.detail).toContain(
        "ja: eSpeak NG's closest voice (its engine does not offer voicevox:999), en: eSpeak NG's closest voice (its engine does not offer speech:nobody), ko: voicevox:3 (while its engine is down",
      );
    } finally {
      await voicevox.close();
      await speech.close();
    }
  });

  it('refuses a Node.js older than 22.12', () => {
    expect(checkNode('20.20.2')).toMatchObject({ ok: false });
    expect(checkNode('22.12.0')).toMatchObject({ ok: true, warn: true });
    expect(checkNode('24.1.0')).toMatchObject({ ok: true });
  });
});

describe("npm run doctor's engine checks", () => {
  const key = ['doctor', 'speech', 'key', 'never-printed-77'].join('-');
  const env = (voicevox: string, speech: string) => ({
    DISCORD_TOKEN: fakeToken(),
    DISCORD_CLIENT_ID: APP_ID,
    VOICEVOX_URL: voicevox,
    SPEECH_SERVER_URL: `${speech}/v1`,
    SPEECH_SERVER_KEY: key,
    FREE_VOICES: 'ja=voicevox:3,en=speech:nobody',
  });

  it('says whether each engine answers and how many voices it offers, warning of a FREE_VOICES voice not offered', async () => {
    const [voicevox, speech] = [await FakeEngine.start(), await FakeEngine.start()];
    voicevox.handler = voicevoxHandler();
    speech.handler = speechHandler();
    try {
      const { lines: results } = await checkEngines(loadConfig(env(voicevox.url, speech.url)));
      expect(results).toEqual([
        { name: 'VOICEVOX engine', ok: true, detail: `answers at ${voicevox.url}, 3 voice(s) offered` },
        {
          name: 'Speech server',
          ok: true,
          warn: true,
          detail: expect.stringMatching(
            /3 voice\(s\) offered; FREE_VOICES names what it does not offer \(en=speech:nobody\)/,
          ) as string,
        },
      ]);
      expect((await checkEngines(loadConfig({ DISCORD_TOKEN: fakeToken(), DISCORD_CLIENT_ID: APP_ID }))).lines).toEqual(
        [],
      );
    } finally {
      await voicevox.close();
      await speech.close();
    }
  });

  it('fails an engine that does not answer, saying what to do, and never prints the key', async () => {
    const [voicevox, speech] = [await FakeEngine.start(), await FakeEngine.start()];
    voicevox.handler = (_req, res) => void res.writeHead(502).end(key);
    speech.handler = speechHandler(null);
    try {
      const { lines: results } = await checkEngines(loadConfig(env(voicevox.url, speech.url)));
      expect(results[0]).toMatchObject({ name: 'VOICEVOX engine', ok: false });
      expect(results[0]!.detail).toMatch(/HTTP 502.*Start the engine .* or correct VOICEVOX_URL/);
      expect(results[1]).toMatchObject({ name: 'Speech server', ok: true, warn: true });
      expect(results[1]!.detail).toMatch(/lists none at \/audio\/voices, so name them in SPEECH_SERVER_VOICES/);
      expect(speech.seen[0]!.headers.authorization).toBe(`Bearer ${key}`);
      expect(formatResults(results)).not.toContain(key);
    } finally {
      await voicevox.close();
      await speech.close();
    }
  });
});

describe("npm run doctor's free voice line", () => {
  const base = { DISCORD_TOKEN: fakeToken(), DISCORD_CLIENT_ID: APP_ID };
  const engines = { ...base, VOICEVOX_URL: 'http://127.0.0.1:50021', SPEECH_SERVER_URL: 'http://127.0.0.1:8880/v1' };

  it('says which voice speaks each language when the paid one may not, FREE_VOICES alone enough', () => {
    const config = loadConfig({ ...engines, FREE_VOICES: 'ja=voicevox:3,en=speech:af_heart,ko=free-ko-m' });
    expect(checkFreeVoice(config, true)).toEqual({
      name: 'Free voice',
      ok: true,
      detail:
        "members may choose its voices; when the paid voice may not speak, ja: voicevox:3 (while its engine is down, eSpeak NG's closest voice), en: speech:af_heart (while its engine is down, eSpeak NG's closest voice), ko: free-ko-m, every other language: eSpeak NG's closest voice",
    });
    expect(checkFreeVoice(loadConfig({ ...base, FREE_VOICE: 'fallback' }), true).detail).toBe(
      "when the paid voice may not speak, every language: eSpeak NG's closest voice",
    );
  });

  it('says when nothing speaks for the paid voice, and warns of FREE_VOICES turned off or eSpeak NG missing', () => {
    expect(checkFreeVoice(loadConfig(base), true)).toEqual({
      name: 'Free voice',
      ok: true,
      detail:
        'members may choose its voices; what the paid voice may not speak is refused (set FREE_VOICES, or FREE_VOICE=fallback, to speak it in a free voice)',
    });
    // FREE_VOICE=off: FREE_VOICES alone would change nothing, so only FREE_VOICE is advised.
    expect(checkFreeVoice(loadConfig({ ...base, FREE_VOICE: 'off' }), true)).toEqual({
      name: 'Free voice',
      ok: true,
      detail:
        'what the paid voice may not speak is refused (set FREE_VOICE=fallback to speak it in a free voice; FREE_VOICES then names its voices)',
    });
    expect(checkFreeVoice(loadConfig({ ...engines, FREE_VOICE: 'off', FREE_VOICES: 'ja=voicevox:3' }), true)).toEqual({
      name: 'Free voice',
      ok: true,
      warn: true,
      detail: 'FREE_VOICE=off: what the paid voice may not speak is refused, whatever FREE_VOICES names',
    });
    expect(checkFreeVoice(loadConfig({ ...engines, FREE_VOICES: 'ja=voicevox:3,*=espeak' }), false)).toEqual({
      name: 'Free voice',
      ok: true,
      warn: true,
      detail:
        'when the paid voice may not speak, ja: voicevox:3 (while its engine is down, refused: eSpeak NG is not installed), every other language: refused: eSpeak NG is not installed',
    });
  });
});

describe("npm run doctor's free voice line without eSpeak NG installed (bb7)", () => {
  const base = { DISCORD_TOKEN: fakeToken(), DISCORD_CLIENT_ID: APP_ID };
  it.each(['chosen', 'fallback', 'on'] as const)(
    'FREE_VOICE=%s: warns that eSpeak NG is not installed, and says what is refused for it',
    (FREE_VOICE) => {
      const check = checkFreeVoice(loadConfig({ ...base, FREE_VOICE }), false);
      expect(check).toMatchObject({ name: 'Free voice', ok: true, warn: true });
      expect(check.detail).toContain('eSpeak NG is not installed');
      // Members' own picks of its voices are refused where FREE_VOICE lets them choose: said, never "may choose".
      if (FREE_VOICE === 'chosen') expect(check.detail).toMatch(/members' choices of its voices are refused/);
      expect(check.detail).not.toContain('members may choose');
    },
  );
  it('FREE_VOICE=off: nothing of eSpeak NG is used, so nothing to warn of', () => {
    expect(checkFreeVoice(loadConfig({ ...base, FREE_VOICE: 'off' }), false).warn).toBeUndefined();
  });
});

describe('npm run doctor with helper bots', () => {
  it('checks each helper: token, Public Bot off, its servers against the main bot’s, its invite link; never a token', async () => {
    const services = await startLocalServices();
    try {
      const { discord } = services;
      const [good, open, stray, refused] = addHelpers(discord, 4, ['200000000000000001']);
      discord.setBotPublic(true, open!.userId);
      // In a server the main bot does not serve (ALLOWED_GUILDS lists only Seoul).
      discord.inviteBot('200000000000000002', stray!.userId);
      discord.resetBotToken(refused!.userId);
      const tokens = [good, open, stray, refused].map((helper) => helper!.token);
      const results = await runChecks(
        env({
          DISCORD_TOKEN: services.token,
          DISCORD_API_BASE_URL: discord.restUrl,
          HELPER_BOT_TOKENS: tokens.join(','),
          ALLOWED_GUILDS: '200000000000000001',
        }),
      );
      const helper = (n: number) => results.find((r) => r.name === `Helper bot ${n}`);
      expect(helper(1)).toMatchObject({ ok: true, detail: expect.stringMatching(/Public Bot off, in 1 server\(s\)/) });
      expect(helper(1)?.warn).toBeUndefined();
      expect(helper(1)?.detail).toContain(`client_id=${good!.applicationId}&scope=bot&permissions=`);
      expect(helper(2)).toMatchObject({ ok: false, detail: expect.stringMatching(/Public Bot is on/) });
      expect(helper(3)).toMatchObject({
        ok: true,
        warn: true,
        detail: expect.stringMatching(/Not a seat in .*200000000000000002/),
      });
      expect(helper(4)).toMatchObject({
        ok: false,
        detail: expect.stringMatching(/refused its token \(number 4 in HELPER_BOT_TOKENS\)/),
      });
      const printed = formatResults(results);
      for (const token of tokens) expect(printed).not.toContain(token);
    } finally {
      await services.close();
    }
  });
});
