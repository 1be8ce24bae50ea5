// The "Speak" message context menu end to end: the local Discord sends the menu with the chosen message resolved,
// the real bot cleans it as auto-read does and speaks it through the pipeline to the sandbox Voice API; what the API
// received is checked, and what was heard: decoded from the voice channel, or from the voice message posted.
import { MessageFlags } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { t } from '../../src/core/i18n/catalogue.ts';
import type { FakeMessageCommandInput, InteractionHandle, InteractionResponse } from '@saybot/local-discord/types.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { pitchOf, runCommand, voiceMessageGuilds } from '../support/harness.ts';
import { hearVoiceMessage } from '../core/voice-message/helpers.ts';
import { LOUNGE, MINJI, OTHER_ROOM, OUTSIDE } from '../support/world.ts';

const guilds = voiceMessageGuilds();
const [seoul] = guilds;
const SERVER_VOICE = 'voice-b-ko-f-01'; // the built-in voice of a Korean server

const h = useFileHarness({ guilds, config: { voiceIdleTimeoutMs: 60_000 } });

const privately = (handle: InteractionHandle) =>
  ((handle.responses[0]?.flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;
const apiTexts = (from: number) =>
  h.sandbox.requests
    .slice(from)
    .filter((r) => r.endpoint === 'tts')
    .map((r) => r.text);

/** A message with a mention and a URL, written by a member in the other room. */
function chosenMessage(words: string): FakeMessageCommandInput['message'] {
  return {
    author: { id: OTHER_ROOM, username: 'other-room' },
    content: `${words} <@${OUTSIDE}> https://www.youtube.com/watch?v=abc`,
    mentions: [{ id: OUTSIDE, username: 'outside', global_name: 'Dana' }],
  };
}

/** Uses Speak and waits for the response that ends it (not the defer, not "Speaking…"). */
async function speak(
  userId: string,
  message: FakeMessageCommandInput['message'],
  done: (r: InteractionResponse) => boolean,
): Promise<{ handle: InteractionHandle; reply: InteractionResponse }> {
  const handle = await h.discord.messageCommand({ guildId: seoul.id, userId, name: 'Speak', message });
  const reply = await handle.waitFor((r) => r.kind !== 'delete' && done(r), 60_000);
  return { handle, reply };
}

describe('Speak', () => {
  it("speaks the chosen message cleaned like auto-read (a mention by name, a URL as a link word) in the member's voice channel", async () => {
    h.discord.clearAudio(seoul.id);
    const before = h.sandbox.requests.length;
    const { handle, reply } = await speak(MINJI, chosenMessage('이거 봐'), (r) =>
      (r.content ?? '').includes('말했습니다'),
    );
    expect(apiTexts(before)).toEqual(['이거 봐 Dana youtube.com 링크']);
    expect(reply.content).toContain(SERVER_VOICE);
    expect(privately(handle)).toBe(true);
    expect(h.discord.botVoiceChannel(seoul.id)).toBe(LOUNGE);
    const heard = await h.discord.waitForAudio(seoul.id, { minSeconds: 0.5 });
    expect(Math.abs((pitchOf(heard) ?? 0) - (h.sandbox.voicePitchHz(SERVER_VOICE) ?? -1))).toBeLessThan(4);
    for (const r of handle.responses) expect(r.mentioned).toEqual({ users: [], roles: [], everyone: false });
  });

  it("speaks with the member's own voice (/myvoice) over the server's", async () => {
    const mine = 'voice-b-en-m-01'; // one SayBot lists: only those are saved
    try {
      await runCommand(h, {
        guildId: seoul.id,
        userId: MINJI,
        name: 'myvoice',
        subcommand: 'set',
        options: { voice: mine },
      });
      h.discord.clearAudio(seoul.id);
      const { reply } = await speak(MINJI, chosenMessage('내 목소리로'), (r) =>
        (r.content ?? '').includes('말했습니다'),
      );
      expect(reply.content).toContain(mine);
      const heard = await h.discord.waitForAudio(seoul.id, { minSeconds: 0.5 });
      expect(Math.abs((pitchOf(heard) ?? 0) - (h.sandbox.voicePitchHz(mine) ?? -1))).toBeLessThan(4);
    } finally {
      await runCommand(h, { guildId: seoul.id, userId: MINJI, name: 'myvoice', subcommand: 'clear' });
    }
  });

  it("answers a member outside voice with a voice message as the menu's own public response, shown as theirs", async () => {
    const from = h.discord.channelMessages(seoul.textChannelId).length;
    const before = h.sandbox.requests.length;
    const { handle, reply } = await speak(OUTSIDE, chosenMessage('음성 메시지로'), (r) => r.files.length > 0);
    expect(privately(handle)).toBe(false);
    expect(handle.responses[0]?.flags).toBe(MessageFlags.IsVoiceMessage);
    expect(apiTexts(before)).toEqual(['음성 메시지로 Dana youtube.com 링크']);
    // Nothing else in the channel: the response is the voice message, with who used Speak on it.
    expect(h.discord.channelMessages(seoul.textChannelId).slice(from)).toHaveLength(0);
    expect(reply.kind).toBe('edit-original');
    expect((Number(reply.message?.flags) & MessageFlags.IsVoiceMessage) !== 0).toBe(true);
    expect((reply.message?.interaction_metadata as { user?: { id?: string } } | undefined)?.user?.id).toBe(OUTSIDE);
    const heard = await hearVoiceMessage(reply.files[0]?.data ?? Buffer.alloc(0));
    expect(Math.abs((heard.pitchHz ?? 0) - (h.sandbox.voicePitchHz(SERVER_VOICE) ?? -1))).toBeLessThan(4);
  });

  it("follows the member's outside-voice default: a file when they chose files", async () => {
    try {
      await runCommand(h, {
        guildId: seoul.id,
        userId: OUTSIDE,
        name: 'output',
        subcommand: 'me',
        options: { outside_voice: 'file' },
      });
      const from = h.discord.channelMessages(seoul.textChannelId).length;
      const { handle, reply } = await speak(OUTSIDE, chosenMessage('파일로'), (r) => r.content !== undefined);
      expect(reply.files).toHaveLength(1);
      expect(reply.content).toContain('파일');
      expect(privately(handle)).toBe(true);
      expect(h.discord.channelMessages(seoul.textChannelId).slice(from)).toHaveLength(0);
    } finally {
      await runCommand(h, {
        guildId: seoul.id,
        userId: OUTSIDE,
        name: 'output',
        subcommand: 'me',
        options: { outside_voice: 'reset' },
      });
    }
  });

  it('says privately when the message has nothing to read, and sends nothing to the API', async () => {
    const before = h.sandbox.requests.length;
    const { handle, reply } = await speak(
      OUTSIDE,
      { author: { id: MINJI, username: 'minji' }, content: '😂😂 **' },
      (r) => r.content !== undefined,
    );
    expect(reply.content).toBe(t('ko', 'speak.nothing'));
    expect(privately(handle)).toBe(true);
    expect(h.sandbox.requests.length).toBe(before);
  });
});
