// `npm run demo` (demo/demo.ts): SayBot started as `npm start` runs it against the local Discord and the sandbox.
// What a newcomer is shown must be real: the voice channel's audio as heard (words a person understands, by default;
// with tones, the voice's pitch and the text's length), the file and the voice message as sent, and SayBot's
// replies in the transcript.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionFlagsBits } from 'discord.js';
import {
  DEMO_COMMANDS,
  DEMO_GUILD_ID,
  DEMO_MANAGER,
  runDemo,
  type DemoResult,
  type DemoStack,
} from '../../demo/demo.ts';
import { dominantPitchHz, rmsDbfs } from '../../src/core/audio/analysis/analysis.ts';
import { analyseClip, type ClipInfo } from '../../src/core/audio/analysis/clip.ts';
import { presetVoice } from '@saybot/voice-sandbox/voices.ts';
import { hearVoiceMessage } from '../core/voice-message/helpers.ts';
import { speechLikeness } from '../support/speech-likeness.ts';

const pitchOf = (clip: ClipInfo) => dominantPitchHz(clip.samples ?? new Float32Array(0), clip.sampleRate);
const voicePitch = (voice: string) => presetVoice(voice)?.pitchHz ?? Number.NaN;

/** Whether a clip varies as speech does (test/support/speech-likeness.ts), unlike the sandbox's steady tones. */
const speechLike = (clip: ClipInfo) => {
  const likeness = speechLikeness(clip.samples ?? new Float32Array(0), clip.sampleRate);
  return likeness.loudnessSpread > 0.5 && likeness.crossingSpread > 0.3;
};

describe('npm run demo', () => {
  let outDir: string;
  let result: DemoResult;
  let demoLogin: { userId: string; demoGuild: Record<string, unknown> | undefined } | undefined;
  beforeAll(async () => {
    outDir = mkdtempSync(path.join(tmpdir(), 'saybot-demo-'));
    result = await runDemo({
      outDir,
      signal: AbortSignal.timeout(60_000),
      whileRunning: async (stack) => {
        demoLogin = await logInSilently(stack);
      },
    });
  }, 70_000);
  afterAll(() => {
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('writes what the voice channel heard: words (the free voice is installed), not test tones', async () => {
    expect(result.speech).toBe('words');
    const heard = await analyseClip(readFileSync(result.heardWav));
    expect(heard.format).toBe('wav');
    expect(heard.sampleRate).toBe(48_000);
    expect(heard.durationSeconds).toBeCloseTo(result.heardSeconds, 2);
    expect(heard.durationSeconds).toBeGreaterThan(1);
    expect(rmsDbfs(heard.samples ?? new Float32Array(0))).toBeGreaterThan(-30);
    expect(speechLike(heard)).toBe(true);
  });

  it('keeps the file SayBot sent and the voice message it posted, both speech', async () => {
    expect(speechLike(await analyseClip(readFileSync(result.sentFile)))).toBe(true);
    const message = await hearVoiceMessage(readFileSync(result.voiceMessage));
    expect(message.seconds).toBeGreaterThan(0.5);
  });

  it('has the browser logged in as the demo manager: a login without a consent page is hers, with Manage Server in the demo server', () => {
    expect(demoLogin?.userId).toBe(DEMO_MANAGER.id);
    const permissions = BigInt(String(demoLogin?.demoGuild?.permissions ?? '0'));
    expect(permissions & PermissionFlagsBits.ManageGuild).toBe(PermissionFlagsBits.ManageGuild);
    expect(demoLogin?.demoGuild?.owner).toBe(false);
  });

  it("writes each member's command and SayBot's replies to the transcript", () => {
    const transcript = readFileSync(result.transcript, 'utf8');
    for (const { member, options } of Object.values(DEMO_COMMANDS)) {
      expect(transcript).toContain(`${member.username}: /say text: ${options.text}`);
    }
    expect(transcript).toMatch(/SayBot \(everyone sees this\): Spoke \d+\.\d s in #Lounge with `voice-b-en-f-01`/);
    expect(transcript).toMatch(/SayBot \(.*\): .*`voice-b-en-m-01`.*\n {3}Attached: \S+\.wav/);
    expect(transcript).toMatch(
      /carol: \/say .*output: voice-message\n {3}Posted in #general as carol's \/say: a voice message -> voice-message\.ogg/,
    );
  });
});

describe('npm run demo with test tones', () => {
  it("writes the /say text's length at its voice's pitch, which speechLike tells from words", async () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'saybot-demo-'));
    try {
      const result = await runDemo({ outDir, speech: 'tones', signal: AbortSignal.timeout(60_000) });
      const heard = await analyseClip(readFileSync(result.heardWav));
      const expected = result.expectedSeconds ?? Number.NaN;
      expect(heard.durationSeconds).toBeGreaterThan(expected - 0.1);
      expect(heard.durationSeconds).toBeLessThan(expected + 0.15);
      expect(Math.abs((pitchOf(heard) ?? 0) - voicePitch(DEMO_COMMANDS.voice.options.voice))).toBeLessThan(4);
      expect(speechLike(heard)).toBe(false);
      const file = await analyseClip(readFileSync(result.sentFile));
      expect(Math.abs((pitchOf(file) ?? 0) - voicePitch(DEMO_COMMANDS.file.options.voice))).toBeLessThan(4);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 70_000);
});

describe('npm run demo, stopped', () => {
  it('rejects with the reason once SayBot has shut down, and writes what it has', async () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'saybot-demo-'));
    const stop = new AbortController();
    try {
      const log = (line: string) => {
        if (line.startsWith('SayBot is ready')) stop.abort(new Error('stopped by the test'));
      };
      await expect(runDemo({ outDir, signal: stop.signal, log })).rejects.toThrow('stopped by the test');
      expect(readFileSync(path.join(outDir, 'transcript.txt'), 'utf8')).toContain('SayBot demo');
      // SayBot's own last words: a clean shutdown, not a process left running.
      const botLog = readFileSync(path.join(outDir, 'saybot.log'), 'utf8').trim().split('\n');
      expect(JSON.parse(botLog.at(-1) ?? '{}')).toMatchObject({ msg: 'stopped' });
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

/** A website's login against the demo's local Discord with prompt=none, as a browser with its session would do it. */
async function logInSilently({
  discord,
}: DemoStack): Promise<{ userId: string; demoGuild: Record<string, unknown> | undefined }> {
  const redirectUri = 'http://127.0.0.1:9/auth/callback';
  discord.oauth2.registerRedirectUri(redirectUri);
  const answer = await fetch(discord.oauth2.authorizationUrl({ redirectUri, state: 's', prompt: 'none' }), {
    redirect: 'manual',
  });
  const code = new URL(answer.headers.get('location') ?? redirectUri).searchParams.get('code') ?? '';
  const tokens = (await (
    await fetch(discord.oauth2.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: discord.oauth2.clientId,
        client_secret: discord.oauth2.clientSecret,
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
      }),
    })
  ).json()) as { access_token?: string };
  const bearer = { headers: { authorization: `Bearer ${tokens.access_token}` } };
  const me = (await (await fetch(`${discord.oauth2.apiUrl}/users/@me`, bearer)).json()) as { id: string };
  const guilds = (await (await fetch(`${discord.oauth2.apiUrl}/users/@me/guilds`, bearer)).json()) as Array<
    Record<string, unknown>
  >;
  return { userId: me.id, demoGuild: guilds.find((g) => g.id === DEMO_GUILD_ID) };
}
