// The user-installable app end to end: commands registered as the operator's USER_INSTALL says, and /say used in a
// DM (no guild, no member, app_permissions of a private channel) or a server SayBot is not in (the member's
// permissions, @everyone's app_permissions) answered with a file or a voice message, against the local Discord and
// the sandbox Voice API.
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS } from '@saybot/local-discord/state.ts';
import type { InteractionHandle } from '@saybot/local-discord/types.ts';
import { rowsHolding, scanSqlite } from '../support/db-scan.ts';
import { hearVoiceMessage } from '../core/voice-message/helpers.ts';
import { t } from '../../src/core/i18n/catalogue.ts';
import { loadCommandModules } from '../../src/app/command-modules.ts';
import { deployCommands } from '../../src/core/interactions/deploy.ts';
import { useHarnessPerTest } from '../support/file-harness.ts';
import { APP_ID, runCommand, type Harness, type HarnessOptions } from '../support/harness.ts';

const GUILD = '200000000000000082';
const TEXT = '210000000000000082';
const VOICE = '220000000000000082';
const DANA = { id: '300000000000000081', username: 'dana' };
const ERIN = { id: '300000000000000082', username: 'erin' };

const openHarness = useHarnessPerTest();

async function start(options: HarnessOptions & { registerForUsers: boolean }): Promise<Harness> {
  const { registerForUsers, ...rest } = options;
  const harness = await openHarness({
    guilds: [
      {
        id: GUILD,
        name: 'Elsewhere',
        textChannelId: TEXT,
        voiceChannels: [{ id: VOICE, name: 'v' }],
        members: [DANA, ERIN],
      },
    ],
    ...rest,
  });
  // Registered as `npm start` does, global (only global commands can be user-installed).
  await deployCommands({
    token: harness.token,
    clientId: APP_ID,
    apiBaseUrl: harness.discord.restUrl,
    commands: (await loadCommandModules()).values(),
    userInstall: registerForUsers,
  });
  return harness;
}

const registered = (h: Harness, name: string) =>
  (h.discord.registeredCommands() as Array<Record<string, unknown>>).find((c) => c.name === name);

describe('user-installable app', () => {
  it('registers /say and /emote for user installs and private channels, and answers /say in a DM with a file', async () => {
    const h = await start({ env: { USER_INSTALL: 'everyone' }, registerForUsers: true });
    for (const name of ['say', 'emote']) {
      expect(registered(h, name)).toMatchObject({ integration_types: [0, 1], contexts: [0, 1, 2] });
    }
    // A server-only command stays installed to servers only.
    expect(registered(h, 'autoread')?.integration_types).toEqual([0]);
    const from = h.sandbox.requests.length;
    const handle = await h.discord.privateCommand({
      userId: DANA.id,
      name: 'say',
      context: 1,
      options: [{ name: 'text', value: 'Hello from a DM.' }],
    });
    const reply = await handle.waitFor((r) => r.files.length > 0, 60_000);
    expect(reply.content).toMatch(/^There is no voice channel here, so here is the audio as a file: /);
    expect(reply.files).toHaveLength(1);
    const file = reply.files[0];
    expect(file?.name).toMatch(/\.(wav|mp3)$/);
    // A real audio file, the length the sandbox speaks for that text.
    expect(file?.data.subarray(0, 4).toString('latin1')).toMatch(/^(RIFF|ID3)/);
    expect(
      h.sandbox.requests
        .slice(from)
        .filter((r) => r.endpoint === 'tts')
        .map((r) => r.text),
    ).toEqual(['Hello from a DM.']);
    expect(handle.problems).toEqual([]);
    // Never posted anywhere but the interaction: no channel message, no DM by another route.
    expect(h.discord.channelMessages()).toEqual([]);
  });

  it('names the voice it chose in a DM as the default of the member\'s language, never of "this server" (en, ko, ja)', async () => {
    const h = await start({ env: { USER_INSTALL: 'everyone' }, registerForUsers: true });
    for (const locale of ['en-US', 'ko', 'ja']) {
      const handle = await h.discord.privateCommand({
        userId: DANA.id,
        name: 'say',
        context: 1,
        locale,
        options: [{ name: 'text', value: `Which voice, ${locale}?` }],
      });
      const reply = await handle.waitFor((r) => r.files.length > 0, 60_000);
      const server = t(locale, 'voice.why.builtin', { voice: '' }).trim();
      const yours = t(locale, 'voice.why.builtinOutside', { voice: '' }).trim();
      expect(yours).not.toBe('voice.why.builtinOutside');
      expect(reply.content).toContain(yours);
      expect(reply.content).not.toContain(server);
    }
  });

  it('answers /emote in a group DM with a file from the emotion endpoint', async () => {
    const h = await start({ env: { USER_INSTALL: 'everyone' }, registerForUsers: true });
    const handle = await h.discord.privateCommand({
      userId: ERIN.id,
      name: 'emote',
      context: 2,
      groupDm: true,
      locale: 'ko',
      options: [{ name: 'text', value: 'So happy!' }],
    });
    const reply = await handle.waitFor((r) => r.files.length > 0, 60_000);
    expect(
      reply.content?.startsWith(
        t('ko', 'userInstall.file', { voice: '', seconds: '', format: '' }).split(':')[0] ?? '',
      ),
    ).toBe(true);
    expect(h.sandbox.requests.filter((r) => r.text === 'So happy!').map((r) => r.endpoint)).toEqual(['emotion-tts']);
  });

  it('answers /say in a DM with a file when ALLOWED_GUILDS lists servers: a DM belongs to none of them', async () => {
    const h = await start({ env: { USER_INSTALL: 'everyone', ALLOWED_GUILDS: GUILD }, registerForUsers: true });
    const from = h.sandbox.requests.length;
    const text = 'Still answered in a DM.';
    const handle = await h.discord.privateCommand({
      userId: DANA.id,
      name: 'say',
      context: 1,
      options: [{ name: 'text', value: text }],
    });
    const reply = await handle.waitForFinal(60_000);
    expect(reply.content).toMatch(/^There is no voice channel here, so here is the audio as a file: /);
    expect(reply.files).toHaveLength(1);
    expect(
      h.sandbox.requests
        .slice(from)
        .filter((r) => r.endpoint === 'tts')
        .map((r) => r.text),
    ).toEqual([text]);
  });

  it('holds each user to their own daily budget outside servers, refused before anything is paid', async () => {
    const h = await start({
      env: { USER_INSTALL: 'everyone', BUDGET_MEMBER_DAILY_CHARS: '30', BUDGET_MEMBER_COOLDOWN_SECONDS: '0' },
      registerForUsers: true,
    });
    const say = async (userId: string, text: string) => {
      const handle = await h.discord.privateCommand({
        userId,
        name: 'say',
        context: 2,
        options: [{ name: 'text', value: text }],
      });
      return handle.waitForFinal(60_000);
    };
    const first = await say(DANA.id, 'Twenty characters!!');
    expect(first.files).toHaveLength(1);
    const before = h.sandbox.requests.length;
    const second = await say(DANA.id, 'Twenty more characters.');
    expect(second.files).toHaveLength(0);
    expect(second.content).toMatch(/daily/i);
    expect(h.sandbox.requests.length).toBe(before);
    // Erin's budget is her own.
    const erin = await say(ERIN.id, 'Twenty more characters.');
    expect(erin.files).toHaveLength(1);
  });

  it('refused by the cooldown in a DM or a server without SayBot: worded for use outside servers, never "this server"', async () => {
    const LIMIT = 600;
    const h = await start({
      env: { USER_INSTALL: 'everyone', BUDGET_MEMBER_COOLDOWN_SECONDS: String(LIMIT) },
      registerForUsers: true,
    });
    const say = async (
      userId: string,
      text: string,
      locale: string,
      where: { context: 0 | 1 | 2; guild?: { id: string; memberPermissions: bigint; everyonePermissions: bigint } },
    ) => {
      const handle = await h.discord.privateCommand({
        userId,
        name: 'say',
        locale,
        ...where,
        options: [{ name: 'text', value: text }],
      });
      return handle.waitForFinal(60_000);
    };
    const dm = { context: 1 } as const;
    const foreign = {
      context: 0,
      guild: {
        id: '200000000000000089',
        memberPermissions: DEFAULT_PERMISSIONS,
        everyonePermissions: DEFAULT_PERMISSIONS,
      },
    } as const;
    for (const [user, locale, where, thisServer] of [
      [DANA.id, 'en-US', dm, 'this server'],
      [ERIN.id, 'ko', foreign, '이 서버'],
    ] as const) {
      expect((await say(user, `First, then wait (${locale}).`, locale, where)).files).toHaveLength(1);
      const before = h.sandbox.requests.length;
      const refused = await say(user, `Too soon after it (${locale}).`, locale, where);
      expect(refused.files).toHaveLength(0);
      expect(h.sandbox.requests.length).toBe(before);
      // How long is left follows the clock: read it from the words, then the words must be exactly these.
      const seconds = Number(/(\d+)/.exec(refused.content ?? '')?.[1]);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(LIMIT);
      expect(refused.content).not.toContain(thisServer);
      expect(refused.content).toBe(t(locale, 'budget.refused.cooldownOutside', { seconds, limit: LIMIT }));
    }
  });

  it('is not offered in DMs with USER_INSTALL=off, and a stale registration is answered with why, unpaid', async () => {
    const off = await start({ registerForUsers: false });
    expect(registered(off, 'say')?.integration_types ?? [0]).toEqual([0]);
    await expect(
      off.discord.privateCommand({
        userId: DANA.id,
        name: 'say',
        context: 1,
        options: [{ name: 'text', value: 'hi' }],
      }),
    ).rejects.toThrow(/not offered to user installs/);
    await off.close();
    // Registered for users by an earlier start, then switched off: Discord still delivers it; SayBot refuses.
    const stale = await start({ registerForUsers: true });
    const from = stale.sandbox.requests.length;
    const handle = await stale.discord.privateCommand({
      userId: DANA.id,
      name: 'say',
      context: 1,
      locale: 'ja',
      options: [{ name: 'text', value: 'hi' }],
    });
    const reply = await handle.waitForFinal(10_000);
    expect(reply.content).toBe(t('ja', 'userInstall.off'));
    expect(reply.files).toEqual([]);
    expect(stale.sandbox.requests.length).toBe(from);
  });

  it('with an allow-list, answers only the users on it', async () => {
    const h = await start({
      env: { USER_INSTALL: 'allowlist', USER_INSTALL_ALLOWLIST: DANA.id },
      registerForUsers: true,
    });
    const refused = await (
      await h.discord.privateCommand({
        userId: ERIN.id,
        name: 'say',
        context: 1,
        options: [{ name: 'text', value: 'hi' }],
      })
    ).waitForFinal(10_000);
    expect(refused.content).toBe(t('en-US', 'userInstall.notAllowed'));
    const allowed = await (
      await h.discord.privateCommand({
        userId: DANA.id,
        name: 'say',
        context: 1,
        options: [{ name: 'text', value: 'Hello.' }],
      })
    ).waitForFinal(60_000);
    expect(allowed.files).toHaveLength(1);
  });
  describe('as a voice message (output: voice-message)', () => {
    const FOREIGN = '200000000000000089'; // a server SayBot is not in
    const WITH_VOICE_MESSAGES = DEFAULT_PERMISSIONS | PermissionFlagsBits.SendVoiceMessages;
    const isVoiceMessage = (flags: number | undefined) => ((flags ?? 0) & MessageFlags.IsVoiceMessage) !== 0;
    const ephemeral = (flags: number | undefined) => ((flags ?? 0) & MessageFlags.Ephemeral) !== 0;
    const ttsTexts = (h: Harness, from: number) =>
      h.sandbox.requests
        .slice(from)
        .filter((r) => r.endpoint === 'tts')
        .map((r) => r.text);

    /** The voice message a user-install /say answered with: the deferral's flags, the one edit, the audio heard. */
    async function voiceMessageOf(h: Harness, handle: InteractionHandle, text: string): Promise<void> {
      const edit = await handle.waitFor((r) => r.kind === 'edit-original' && r.files.length > 0, 60_000);
      // Deferred as a voice message (public), then one edit carrying the audio: Discord shows who used the command.
      expect(handle.responses[0]).toMatchObject({ kind: 'callback', type: 5, flags: MessageFlags.IsVoiceMessage });
      expect(isVoiceMessage(edit.message?.flags as number | undefined)).toBe(true);
      expect(edit.files).toHaveLength(1);
      expect(edit.files[0]?.contentType).toBe('audio/ogg');
      expect(edit.message?.content).toBe('');
      const heard = await hearVoiceMessage(edit.files[0]?.data ?? Buffer.alloc(0));
      expect(Math.abs(heard.declaredSeconds - h.sandbox.expectedDurationSeconds(text))).toBeLessThan(0.1);
      expect(handle.responses.filter((r) => r.kind === 'edit-original')).toHaveLength(1);
      expect(handle.problems).toEqual([]);
    }

    it('answers /say in a DM with a voice message as the response itself', async () => {
      const h = await start({ env: { USER_INSTALL: 'everyone' }, registerForUsers: true });
      const text = 'A voice message from a DM.';
      const handle = await h.discord.privateCommand({
        userId: DANA.id,
        name: 'say',
        context: 1,
        options: [
          { name: 'text', value: text },
          { name: 'output', value: 'voice-message' },
        ],
      });
      await voiceMessageOf(h, handle, text);
      expect(h.discord.channelMessages()).toEqual([]);
    });

    it('in a server SayBot is not in, answers a member who may send voice messages there with one', async () => {
      const h = await start({ env: { USER_INSTALL: 'everyone' }, registerForUsers: true });
      const text = 'Hello from another server.';
      const handle = await h.discord.privateCommand({
        userId: DANA.id,
        name: 'say',
        context: 0,
        guild: { id: FOREIGN, memberPermissions: WITH_VOICE_MESSAGES, everyonePermissions: WITH_VOICE_MESSAGES },
        options: [
          { name: 'text', value: text },
          { name: 'output', value: 'voice-message' },
        ],
      });
      await voiceMessageOf(h, handle, text);
    });

    it('in a server SayBot is not in, gives a member without Send Voice Messages the audio privately as a file, saying why', async () => {
      const h = await start({ env: { USER_INSTALL: 'everyone' }, registerForUsers: true });
      const handle = await h.discord.privateCommand({
        userId: DANA.id,
        name: 'say',
        context: 0,
        locale: 'ja',
        guild: { id: FOREIGN, memberPermissions: DEFAULT_PERMISSIONS, everyonePermissions: DEFAULT_PERMISSIONS },
        options: [
          { name: 'text', value: 'Not for me here.' },
          { name: 'output', value: 'voice-message' },
        ],
      });
      const reply = await handle.waitFor((r) => r.files.length > 0, 60_000);
      expect(ephemeral(handle.responses[0]?.flags)).toBe(true);
      expect(
        handle.responses.some((r) => isVoiceMessage(r.flags) || isVoiceMessage(r.message?.flags as number | undefined)),
      ).toBe(false);
      expect(
        reply.content?.startsWith(
          t('ja', 'voiceMessage.fallback.member-no-permission', { voice: '', seconds: '', format: '' }).slice(0, 10),
        ),
      ).toBe(true);
      expect(reply.files[0]?.name).toMatch(/\.ogg$/);
      expect(handle.problems).toEqual([]);
    });

    it('where @everyone may not attach files (so neither may SayBot), says so before anything is paid', async () => {
      const h = await start({ env: { USER_INSTALL: 'everyone' }, registerForUsers: true });
      const from = h.sandbox.requests.length;
      for (const output of ['voice-message', 'file']) {
        const handle = await h.discord.privateCommand({
          userId: DANA.id,
          name: 'say',
          context: 0,
          guild: {
            id: FOREIGN,
            memberPermissions: WITH_VOICE_MESSAGES,
            everyonePermissions: WITH_VOICE_MESSAGES & ~PermissionFlagsBits.AttachFiles,
          },
          options: [
            { name: 'text', value: 'Nothing to attach.' },
            { name: 'output', value: output },
          ],
        });
        const reply = await handle.waitForFinal(10_000);
        expect(reply.content).toBe(t('en-US', 'userInstall.noAttachFiles'));
        expect(reply.files).toEqual([]);
      }
      expect(ttsTexts(h, from)).toEqual([]);
    });

    it('when Discord does not take the voice message, removes the public response and sends the file privately, saying why', async () => {
      const h = await start({ env: { USER_INSTALL: 'everyone' }, registerForUsers: true });
      h.discord.refuse({
        route: 'webhook-edit',
        status: 403,
        code: 50173,
        message: 'Cannot send voice messages in this channel',
      });
      const handle = await h.discord.privateCommand({
        userId: DANA.id,
        name: 'say',
        context: 2,
        options: [
          { name: 'text', value: 'Refused.' },
          { name: 'output', value: 'voice-message' },
        ],
      });
      const reply = await handle.waitFor((r) => r.kind === 'follow-up', 60_000);
      expect(handle.responses.map((r) => r.kind)).toEqual(['callback', 'delete', 'follow-up']);
      expect(ephemeral(reply.flags)).toBe(true);
      expect(reply.content).toMatch(/^Discord does not take voice messages in this channel/);
      expect(reply.files[0]?.name).toMatch(/\.ogg$/);
    });
  });
  describe('/usage and /privacy outside servers', () => {
    const ephemeral = (flags: number | undefined) => ((flags ?? 0) & MessageFlags.Ephemeral) !== 0;
    const inDm = async (
      h: Harness,
      userId: string,
      name: string,
      sub?: string,
      extra: Partial<{ locale: string; context: 1 | 2 }> = {},
    ) => {
      const handle = await h.discord.privateCommand({
        userId,
        name,
        context: extra.context ?? 1,
        ...(extra.locale === undefined ? {} : { locale: extra.locale }),
        ...(sub === undefined ? {} : { options: [{ name: sub, type: 1, options: [] }] }),
      });
      const reply = await handle.waitForFinal(60_000);
      expect(ephemeral(handle.responses[0]?.flags)).toBe(true);
      return reply.content ?? '';
    };
    const say = async (h: Harness, userId: string, text: string) => {
      const handle = await h.discord.privateCommand({
        userId,
        name: 'say',
        context: 1,
        options: [{ name: 'text', value: text }],
      });
      return handle.waitForFinal(60_000);
    };

    it('are registered for user installs only when USER_INSTALL is not off', async () => {
      const on = await start({ env: { USER_INSTALL: 'everyone' }, registerForUsers: true });
      for (const name of ['usage', 'privacy'])
        expect(registered(on, name)).toMatchObject({ integration_types: [0, 1], contexts: [0, 1, 2] });
      await on.close();
      const off = await start({ registerForUsers: false });
      for (const name of ['usage', 'privacy']) expect(registered(off, name)?.integration_types ?? [0]).toEqual([0]);
    });

    it("/usage in a DM shows the user's own use outside servers, privately, against their daily budget and the shared one", async () => {
      const h = await start({
        env: {
          USER_INSTALL: 'everyone',
          BUDGET_MEMBER_DAILY_CHARS: '100',
          BUDGET_GUILD_MONTHLY_CHARS: '1000',
          BUDGET_MEMBER_COOLDOWN_SECONDS: '0',
        },
        registerForUsers: true,
      });
      const text = 'Twenty characters!!';
      expect((await say(h, DANA.id, text)).files).toHaveLength(1);
      const dana = await inDm(h, DANA.id, 'usage');
      expect(dana).toContain(t('en-US', 'usage.outside.where'));
      expect(dana).toContain(`You today: ${text.length} characters; daily budget 100, ${100 - text.length} left`);
      expect(dana).toContain(t('en-US', 'usage.outside.shared', { limit: '1,000', left: String(1000 - text.length) }));
      // Erin's figures are her own; Dana's spending shows only in the shared budget.
      const erin = await inDm(h, ERIN.id, 'usage', undefined, { context: 2 });
      expect(erin).toContain('You today: 0 characters');
      expect(h.discord.channelMessages()).toEqual([]);
    });

    it("/privacy in a DM shows and deletes the user's data outside servers, not a server's, and deleting does not reset the daily budget", async () => {
      const h = await start({
        env: { USER_INSTALL: 'everyone', BUDGET_MEMBER_DAILY_CHARS: '30', BUDGET_MEMBER_COOLDOWN_SECONDS: '0' },
        registerForUsers: true,
      });
      // Something of Dana's in a server SayBot is in, which a DM's /privacy must leave alone.
      await runCommand(h, {
        guildId: GUILD,
        userId: DANA.id,
        name: 'myvoice',
        subcommand: 'set',
        options: { speed: 1.2 },
      });
      expect(await inDm(h, DANA.id, 'privacy', 'show')).toBe(t('en-US', 'privacy.outside.none'));
      expect((await say(h, DANA.id, 'Twenty characters!!')).files).toHaveLength(1);
      const shown = await inDm(h, DANA.id, 'privacy', 'show');
      expect(shown.startsWith(t('en-US', 'privacy.outside.header'))).toBe(true);
      expect(shown).toMatch(/Spend records \(characters per request\): 1/);
      const holding = () => rowsHolding(scanSqlite(h.databasePath), DANA.id);
      const inPseudoGuild = () => holding().filter((r) => Object.values(r.cells).includes('1'));
      expect(inPseudoGuild().length).toBeGreaterThan(0);

      const deleted = await inDm(h, DANA.id, 'privacy', 'delete', { locale: 'ko' });
      expect(deleted).toMatch(
        new RegExp(`^${t('ko', 'privacy.outside.deleted', { deleted: '@', anonymised: '@' }).split('@')[0]}`),
      );
      expect(inPseudoGuild()).toEqual([]);
      expect(holding().map((r) => r.table)).toContain('member_defaults'); // the server's are not the DM's
      expect(await inDm(h, DANA.id, 'privacy', 'show')).toBe(t('en-US', 'privacy.outside.none'));
      // What she spent today still counts: 19 + 23 > 30, refused before anything is paid.
      const before = h.sandbox.requests.length;
      const again = await say(h, DANA.id, 'Twenty more characters.');
      expect(again.files).toHaveLength(0);
      expect(again.content).toMatch(/daily/i);
      expect(h.sandbox.requests.length).toBe(before);
      // A server's data is deleted in that server.
      expect(await inDm(h, DANA.id, 'privacy', 'server')).toBe(t('en-US', 'privacy.server.outside'));
    });
  });
});
