// The rules every way of speaking keeps, written once and run here across the front-ends, end to end: the real bot,
// the local Discord and the sandbox. A table of front-ends (how a member asks for `text` to be spoken, and the words
// they read back) against a table of rules (what must hold whichever front-end asked). To add a front-end, add a
// row to FRONT_ENDS; to add a rule, an `it.each` over it. A row says, for every rule, that it keeps it or why the
// rule does not reach it: nothing is skipped without a reason written here. Where a row lets the member choose a
// voice, the rules that take one are asked in the paid voice and in an engine voice (the owner's engines, their
// doubles in packages/engine-doubles over real HTTP).
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { afterAll, describe, expect, it } from 'vitest';
import { startSpeechServerDouble, startVoicevoxDouble } from '@saybot/engine-doubles';
import { t } from '../../src/core/i18n/catalogue.ts';
import { estimateCeiling, estimateFreeLineSeconds, MAX_FREE_LINE_SECONDS } from '../../src/core/characters.ts';
import { countCharacters } from '../../src/core/characters.ts';
import { DEFAULT_MAX_LENGTH } from '../../src/features/autoread/text/cleanup.ts';
import { fixture } from '../core/audio/fixtures.ts';
import { postChat, spoken, startAutoRead } from '../support/chat.ts';
import { useFileHarness } from '../support/file-harness.ts';
import { runCommand, type CommandInput, type Harness } from '../support/harness.ts';
import type { InteractionHandle } from '@saybot/local-discord/types.ts';
import { ALICE, GENERAL, LONDON as GUILD, LONDON_TEXT, londonWith, timeOut } from '../support/world.ts';
import { CUT_FREE_LINE } from '../support/cut-free-line.ts';
import { finishedClips } from '../support/clips-finished.ts';

/** A member in voice who is only announced (auto-read's join/leave lines). */
const DANA = '300000000000000931';
/** A member who wrote a message and is banned before it is read (the Speak menu's author gone). */
const ERIN = '300000000000000932';

/** The member's daily budget in characters: the cap every row is asked past. */
const DAILY = 20;

/**
 * The owner's engines (packages/engine-doubles), started before the harnesses that name them and closed after them:
 * their voices are chosen like the paid one wherever a member chooses a voice. They speak twice as fast as their
 * defaults, as the sandbox does (below): no row asserts a line's length, and a row in voice waits for its line to play.
 */
const voicevox = await startVoicevoxDouble({ moraSeconds: 0.03 });
const speech = await startSpeechServerDouble({ secondsPerCharacter: 0.03 });
afterAll(async () => {
  await voicevox.close();
  await speech.close();
});

/** The world every row is asked in, with the operator's budgets `budgets`. */
const world = (budgets: Record<string, string>) => ({
  // Alice may manage the server, so /clone and /autoread start are hers to use; budgets do not spare managers.
  guilds: [
    londonWith([
      {
        id: ALICE,
        username: 'alice',
        voiceChannelId: GENERAL,
        locale: 'en-US',
        permissions: PermissionFlagsBits.ManageGuild,
      },
      // Announced when she joins or leaves; muted by the rule that asks it.
      { id: DANA, username: 'dana', voiceChannelId: GENERAL, locale: 'en-US' },
      { id: ERIN, username: 'erin', locale: 'en-US' },
    ]),
  ],
  config: { voiceIdleTimeoutMs: 60_000 },
  sandbox: { secondsPerCharacter: 0.03 },
  env: {
    ...budgets,
    BUDGET_MEMBER_COOLDOWN_SECONDS: '0',
    USER_INSTALL: 'everyone',
    VOICEVOX_URL: voicevox.url,
    SPEECH_SERVER_URL: speech.url,
  },
});

const h = useFileHarness(world({ BUDGET_MEMBER_DAILY_CHARS: String(DAILY) }));
/** The same world where a member's day has no cap: for the rules that pay on every row. */
const paying = useFileHarness(world({}));

/**
 * The rules below, by name. `engineVoice` is the row's line in an engine voice (the owner's own engines); a row that
 * keeps it is asked the rights rules (`right`, `timedOut`, the denials) and `queueBound` and `stopSkip` in an
 * engine voice as well as in the paid one.
 */
type Rule =
  | 'budget'
  | 'count'
  | 'right'
  | 'timedOut'
  | 'freeLine'
  | 'freeLineCut'
  | 'paidOnce'
  | 'paidThenRefused'
  | 'engineVoice'
  | 'queueBound'
  | 'stopSkip';

/**
 * What an order does, in Discord's terms (src/features/speaking/gate.ts declares the same): each effect needs rights
 * of the member's where it happens, and the rule `denied` takes each of them away in turn.
 */
type Effect = 'post' | 'attach-file' | 'post-voice-message' | 'speak-in-voice' | 'member-words';

/** A right of the member's taken away where the row's effect happens, and how the row must answer. */
type Denied = 'view-channel' | 'send-messages' | 'attach-files' | 'speak' | 'connect' | 'server-muted' | 'timed-out';

/**
 * A way of speaking: asks for `text` as ALICE would there, and gives back the words she (or, for auto-read, the
 * channel) reads at the end. `keeps` holds, for every rule, `true` or why the rule does not reach this front-end.
 */
interface FrontEnd {
  name: string;
  keeps: Record<Rule, true | string>;
  /** What the row's order does, and so which rights it needs. */
  effects: readonly Effect[];
  /** For every right its effects need: `true` (asked without it, below) or why it is not asked here. */
  denied: Partial<Record<Denied, true | string>>;
  /**
   * `asking` is called by a row that must pay for something first (a reply to press): the member asks from then.
   * `voice`, when given, is the voice asked for where the front-end lets the member choose one (her /myvoice is set
   * to it as well, for the front-ends that speak in it).
   */
  ask?: (harness: Harness, text: string, asking: () => void, voice?: string) => Promise<string>;
  /** `ask` pays for a reply first (which the member's rights allow) and calls `asking` before the asking itself. */
  paysFirst?: true;
}

/**
 * Why a row in voice is not asked for the cut of a free line here: the cut line plays its whole 120 s. It goes
 * through the same worder; free-voice.test.ts hears one cut in voice, stopped once it is heard.
 */
const CUT_IN_VOICE =
  'in voice the cut line plays its whole 120 s; one is heard cut, and stopped, in free-voice.test.ts';
/** Why "paid, then refused" cannot reach a row: it has one check, before its one payment. */
const ONE_CHECK =
  'checks and holds what it will pay for once, before anything is paid: no part it asks for is paid and then refused';
const ALL: Record<Rule, true | string> = {
  budget: true,
  count: true,
  right: true,
  timedOut: true,
  freeLine: true,
  freeLineCut: CUT_IN_VOICE,
  paidOnce: true,
  paidThenRefused: ONE_CHECK,
  engineVoice: true,
  queueBound: true,
  stopSkip: true,
};
/** Why a row that posts a file is not asked /skip and /stop. */
const NOTHING_PLAYS =
  'posts a file: nothing plays in voice to stop or skip (/stop ends a file being made: stop-file-held.test.ts)';
/** Why /emote is not asked a line in an engine voice: it refuses one (asked below: "an engine voice is refused"). */
const NO_EMOTION =
  'refuses an engine voice in words, an emotion having no meaning for an engine (asked below: an engine voice is refused)';
/** A row that posts a file: it speaks in no voice channel, so no voice right of the member's is used. */
const IN_FILES: Record<Rule, true | string> = {
  budget: true,
  count: true,
  right: 'posts a file: it speaks in no voice channel, so it uses none of the voice rights a moderator takes away',
  // A timeout takes every right but viewing: posting too (EFFECT_RIGHTS asks not-timed-out with every post).
  timedOut: true,
  freeLine: true,
  freeLineCut: true,
  paidOnce: true,
  paidThenRefused: ONE_CHECK,
  engineVoice: true,
  // The member's bound counts her requests under way, whatever their target: a file's too.
  queueBound: true,
  stopSkip: NOTHING_PLAYS,
};
/** The option a row passes when a voice is asked for. */
const voiceOf = (voice: string | undefined) => (voice === undefined ? {} : { voice });

/** The harnesses auto-read was started in (once for the file: it stays on). */
const reading = new WeakSet<Harness>();

/**
 * Starts auto-read in `harness` once. Her name is not read before her words (say_name off): a message is read as the
 * same line each time it is posted, whoever wrote before it (the rule `engineVoice` asks a line twice).
 */
async function startReading(harness: Harness): Promise<void> {
  if (reading.has(harness)) return;
  reading.add(harness);
  await startAutoRead(harness, GUILD, ALICE, { text: LONDON_TEXT, voice: GENERAL });
  const options = { say_name: false };
  await runCommand(harness, { guildId: GUILD, userId: ALICE, name: 'autoread', subcommand: 'settings', options });
}

const finalWords = (r: { kind: string; content?: string | undefined }) =>
  r.kind !== 'delete' && r.content !== undefined && !/^(Speaking|Queued)/.test(r.content);

/** Why a row does not ask a mute itself: the rule `right` above mutes the member of every row that keeps it. */
const IN_RIGHT_RULE = 'asked by the rule `right` (a moderator server-mutes the member)';
const IN_RIGHT_RULE_AUTOREAD = "passes over a server-muted member's messages in silence (autoread.test.ts)";
/** Why a row does not ask a timeout itself: the rule `timedOut` times the member of every row that keeps it out. */
const IN_TIMEOUT_RULE = 'asked by the rule `timedOut` (a moderator times the member out)';
/** What a row speaking the member's words in their voice channel is asked without. */
const IN_VOICE_DENIED = {
  'view-channel': true,
  speak: true,
  connect: true,
  'server-muted': IN_RIGHT_RULE,
  'timed-out': IN_TIMEOUT_RULE,
} as const;
/** Why a row that only posts is not asked without View Channel: Discord offers no command where the member cannot see. */
const TEXT_VIEW =
  'posts in the text channel the command came from, which Discord lets only a member who views it use; the gate asks View Channel there with every post (EFFECT_RIGHTS)';
const OUTSIDE_A_SERVER =
  "outside a server there is no channel whose rights the member lacks; SayBot's own Attach Files is checked (userInstall.noAttachFiles)";

/** The last interaction a row made (the final answer of a button row): the rule `denied` reads its responses. */
let lastAsked: InteractionHandle | undefined;

/**
 * How long a front-end's answer is waited for: a free line's thread, ten or fifteen steps nicer than the processes
 * beside it, may take tens of seconds on a busy host (its first line sets eSpeak NG up).
 */
const ANSWER_MS = 60_000;

/** runCommand, keeping its interaction in lastAsked. */
async function ran(harness: Harness, input: CommandInput): Promise<{ handle: InteractionHandle; content: string }> {
  const done = await runCommand(harness, input);
  lastAsked = done.handle;
  return done;
}

/**
 * The announcement row: DANA, her own name set to "Visitmyshop" (/myvoice name), leaves the channel read and joins
 * again with join/leave announcements on. Gives back what the service was asked to speak with her name in it, once a
 * line posted after (a chat message of ALICE's) has been asked for.
 */
async function announce(harness: Harness): Promise<string> {
  await startReading(harness);
  const name = 'Visitmyshop';
  await runCommand(harness, { guildId: GUILD, userId: DANA, name: 'myvoice', subcommand: 'set', options: { name } });
  const announced = { announce: true };
  await runCommand(harness, {
    guildId: GUILD,
    userId: ALICE,
    name: 'autoread',
    subcommand: 'settings',
    options: announced,
  });
  const from = harness.sandbox.requests.length;
  // Muted while in the channel: a moderator's mute is the member's in the guild, kept across her leave and join.
  if (muteDana) harness.discord.setVoiceState(GUILD, DANA, GENERAL, { mute: true });
  // Only DANA may not view the channel: ALICE's line after hers must still be read.
  if (hideFromDana)
    harness.discord.setChannelOverwrites(GUILD, GENERAL, [
      { id: DANA, type: 1, deny: PermissionFlagsBits.ViewChannel },
    ]);
  // Timed out while in the channel: she may leave it, and joins none until the timeout is lifted.
  const lift = timeOutDana ? timeOut(harness.discord, GUILD, DANA) : undefined;
  try {
    // Unmuted as she leaves: the leave is still judged by the state she had in the channel she left.
    harness.discord.setVoiceState(GUILD, DANA, null, unmutedLeaving ? { mute: false } : {});
    if (lift === undefined) harness.discord.setVoiceState(GUILD, DANA, GENERAL);
    // A line that is read after hers would be: once it is asked for, hers were asked for already or never.
    const marker = `After Dana ${randomUUID().slice(0, 8)}`;
    expect(
      await postChat(harness, { guildId: GUILD, channelId: LONDON_TEXT }, { id: ALICE, username: 'alice' }, marker),
    ).toBe(true);
    await expect
      .poll(() => spoken(harness, from).some((said) => said.includes(marker)), { timeout: 20_000 })
      .toBe(true);
    return spoken(harness, from)
      .filter((said) => said.includes(name))
      .join(' | ');
  } finally {
    // Announcements off before she is back where she was: her return is no line of this row's.
    await runCommand(harness, {
      guildId: GUILD,
      userId: ALICE,
      name: 'autoread',
      subcommand: 'settings',
      options: { announce: false },
    });
    lift?.();
    harness.discord.setVoiceState(GUILD, DANA, GENERAL, { mute: false });
  }
}

/** Whether `announce` mutes DANA (the rule `denied`) or not. */
let muteDana = false;
/** Whether `announce` lifts DANA's mute in her leave's own voice state. */
let unmutedLeaving = false;
/** Whether `announce` denies DANA View Channel on the voice channel (the rule `denied`) or not. */
let hideFromDana = false;
/** Whether `announce` times DANA out while she is in the channel (the rule `denied`), so that she only leaves. */
let timeOutDana = false;
/** Lifts DANA's timeout, when a case timed her out. */
let liftDana: (() => void) | undefined;

const FRONT_ENDS: FrontEnd[] = [
  {
    name: '/say',
    keeps: IN_FILES,
    effects: ['attach-file', 'member-words'],
    denied: {
      'view-channel': TEXT_VIEW,
      'send-messages': true,
      'attach-files': true,
      'timed-out': IN_TIMEOUT_RULE,
    },
    ask: async (harness, text, _asking, voice) =>
      (
        await ran(harness, {
          guildId: GUILD,
          userId: ALICE,
          name: 'say',
          options: { text, output: 'file', ...voiceOf(voice) },
        })
      ).content,
  },
  {
    name: '/say in voice',
    keeps: ALL,
    effects: ['speak-in-voice', 'member-words'],
    denied: IN_VOICE_DENIED,
    ask: async (harness, text, _asking, voice) =>
      (await ran(harness, { guildId: GUILD, userId: ALICE, name: 'say', options: { text, ...voiceOf(voice) } }))
        .content,
  },
  {
    name: '/emote',
    keeps: { ...IN_FILES, engineVoice: NO_EMOTION },
    effects: ['attach-file', 'member-words'],
    denied: {
      'view-channel': TEXT_VIEW,
      'send-messages': true,
      'attach-files': true,
      'timed-out': IN_TIMEOUT_RULE,
    },
    ask: async (harness, text, _asking, voice) =>
      (
        await ran(harness, {
          guildId: GUILD,
          userId: ALICE,
          name: 'emote',
          options: { text, output: 'file', ...voiceOf(voice) },
        })
      ).content,
  },
  {
    name: '/emote in voice',
    keeps: { ...ALL, engineVoice: NO_EMOTION },
    effects: ['speak-in-voice', 'member-words'],
    denied: IN_VOICE_DENIED,
    ask: async (harness, text, _asking, voice) =>
      (await ran(harness, { guildId: GUILD, userId: ALICE, name: 'emote', options: { text, ...voiceOf(voice) } }))
        .content,
  },
  {
    name: '/say outside a server (the user install)',
    keeps: {
      ...IN_FILES,
      right: 'outside a server there is no voice channel and no moderator: it only posts files',
      timedOut: 'outside a server there is no server to be timed out in',
      queueBound: "a member's bound is per server: outside one, her requests in a server are not counted",
      stopSkip: 'outside a server there is no voice channel: it only posts files',
    },
    effects: ['attach-file', 'member-words'],
    denied: {
      'view-channel': OUTSIDE_A_SERVER,
      'send-messages': OUTSIDE_A_SERVER,
      'attach-files': OUTSIDE_A_SERVER,
      'timed-out': OUTSIDE_A_SERVER,
    },
    ask: async (harness, text, _asking, voice) => {
      const handle = await harness.discord.privateCommand({
        userId: ALICE,
        name: 'say',
        context: 2,
        options: [{ name: 'text', value: text }, ...(voice === undefined ? [] : [{ name: 'voice', value: voice }])],
      });
      return (await handle.waitForFinal(ANSWER_MS)).content ?? '';
    },
  },
  {
    name: 'the Speak menu',
    keeps: ALL,
    effects: ['speak-in-voice', 'member-words'],
    denied: IN_VOICE_DENIED,
    ask: async (harness, text) => {
      const handle = await harness.discord.messageCommand({
        guildId: GUILD,
        userId: ALICE,
        name: 'Speak',
        message: { author: { id: ALICE, username: 'alice' }, content: text },
      });
      lastAsked = handle;
      return (await handle.waitFor(finalWords, ANSWER_MS)).content ?? '';
    },
  },
  {
    name: '/scene',
    keeps: {
      ...IN_FILES,
      paidThenRefused:
        'holds the whole scene before its first line is paid; a late part past its quote shows the price again, never a refusal of what was paid (scene-rules.test.ts)',
      stopSkip: 'asked for a file here: nothing plays in voice (a scene in voice is one clip, stopped as any)',
    },
    effects: ['attach-file', 'member-words'],
    denied: {
      'view-channel': TEXT_VIEW,
      'send-messages': true,
      'attach-files': true,
      'timed-out': IN_TIMEOUT_RULE,
    },
    ask: async (harness, text, _asking, voice = 'voice-b-en-f-01') => {
      const form = await harness.discord.command({
        guildId: GUILD,
        userId: ALICE,
        name: 'scene',
        options: [{ name: 'new', type: 1, options: [{ name: 'output', value: 'file' }] }],
      });
      await form.waitFor((r) => r.kind === 'callback' && r.type === 9);
      const script = `cast: Ann = ${voice}\nAnn: ${text}`;
      const submit = await harness.discord.submitModal({ on: form, values: { script } });
      lastAsked = submit;
      const shown = await submit.waitFor((r) => r.kind !== 'delete' && r.content !== undefined, ANSWER_MS);
      const rows = (shown.message?.components ?? []) as Array<{ components: Array<{ custom_id: string }> }>;
      const confirm = rows
        .flatMap((row) => row.components.map((b) => b.custom_id))
        .find((id) => id.startsWith('scene:go:'));
      // Refused at the preview already: its words are the answer.
      if (confirm === undefined) return shown.content ?? '';
      const pressed = await harness.discord.pressButton({
        guildId: GUILD,
        userId: ALICE,
        messageId: String(shown.message?.id),
        customId: confirm,
      });
      lastAsked = pressed;
      return (
        // Not its progress ("🎬 Making") nor the file posted under its own line: the answer.
        (
          await pressed.waitFor(
            (r) => r.kind !== 'follow-up' && r.content !== undefined && !/^🎬 Making/.test(r.content),
            ANSWER_MS,
          )
        ).content ?? ''
      );
    },
  },
  {
    name: "/clone's first line",
    keeps: {
      ...IN_FILES,
      freeLine: 'speaks in the voice it makes, never in a free voice',
      freeLineCut: 'speaks in the voice it makes, never in a free voice',
      paidThenRefused: true,
      engineVoice: 'speaks in the voice it makes, never in an engine voice',
      queueBound: 'its first line is paid with the clone: no bound refuses what was bought (enforcementFor, money.ts)',
    },
    effects: ['attach-file', 'member-words'],
    denied: {
      'view-channel': TEXT_VIEW,
      'send-messages': true,
      'attach-files': true,
      'timed-out': IN_TIMEOUT_RULE,
    },
    ask: async (harness, text) =>
      (
        await ran(harness, {
          guildId: GUILD,
          userId: ALICE,
          name: 'clone',
          // A name of its own each time: a name already taken is refused before any budget is looked at.
          options: { text, name: `Rule ${randomUUID().slice(0, 8)}`, consent: true, output: 'file' },
          attachments: [
            { option: 'audio', data: fixture('tone-220hz-5s-48k.wav'), filename: 'me.wav', contentType: 'audio/wav' },
          ],
        })
      ).content,
  },
  {
    name: 'auto-read',
    keeps: {
      budget: true,
      count: "auto-read tells the whole channel, so its notice names the budget but never a member's figures",
      right: "auto-read passes over a server-muted member's messages in silence, paying nothing (autoread.test.ts)",
      timedOut:
        "Discord lets no timed-out member post (the local Discord refuses it, timeouts.test.ts): no message of theirs comes to be read; their join and leave are the announcements' row",
      freeLine:
        'the pipeline refuses it as for every front-end, but auto-read words no failure other than a refusal to the channel: it is a log line',
      freeLineCut: 'auto-read posts no words for what it spoke, only its refusals',
      paidOnce:
        'speaks through the same client, but a failure leaves no words in the channel to wait for (only refusals are posted)',
      paidThenRefused: ONE_CHECK,
      engineVoice: true,
      queueBound:
        'holds its own bound instead: past it the oldest unread messages are dropped with one notice, whatever voice reads them (queue-bounds.test.ts)',
      stopSkip: true,
    },
    effects: ['speak-in-voice', 'member-words'],
    denied: {
      'view-channel':
        'passes over the message of a member who may not view the voice channel in silence, paying nothing (autoread.test.ts)',
      speak: 'passes over the message of a member denied Speak in silence, paying nothing (autoread.test.ts)',
      connect:
        'the member need not be in the voice channel to be read (only_in_voice is a setting): Connect is not theirs to use',
      'server-muted': IN_RIGHT_RULE_AUTOREAD,
      'timed-out': 'Discord takes Send Messages from a timed-out member: they post nothing to be read',
    },
    // Her line is read in her /myvoice voice. Gives back its notice, or '' once it was read (it posts no words then).
    ask: async (harness, text) => {
      await startReading(harness);
      const shown = harness.discord.channelMessages(LONDON_TEXT).length;
      const clips = finishedClips(harness.logs()).length;
      const author = { id: ALICE, username: 'alice' };
      expect(await postChat(harness, { guildId: GUILD, channelId: LONDON_TEXT }, author, text)).toBe(true);
      const notice = () =>
        harness.discord
          .channelMessages(LONDON_TEXT)
          .slice(shown)
          .map((m) => String(m.message['content']))
          .find((content) => content.startsWith('Auto-read skipped'));
      // Nothing else plays while a rule asks (idle, below): the next clip to finish is hers.
      await expect
        .poll(() => notice() !== undefined || finishedClips(harness.logs()).length > clips, { timeout: ANSWER_MS })
        .toBe(true);
      return notice() ?? '';
    },
  },
  {
    name: '"Play in my voice channel" under a reply',
    keeps: {
      budget: 'plays audio already paid for, from the cache, and never calls the Voice API (reply-buttons.test.ts)',
      count: 'shows no count: the reply it replays showed it',
      right: true,
      timedOut: true,
      freeLine: 'replays audio already made, in the voice it was made in: it makes no line',
      freeLineCut: 'replays from the cache only, which never keeps a cut free line',
      paidOnce: 'plays audio already paid for, from the cache, and never calls the Voice API (reply-buttons.test.ts)',
      paidThenRefused: 'never pays: it plays audio already paid for, from the cache',
      // Its reply made in the engine voice, then played: from the cache, the engine asked once for both.
      engineVoice: true,
      queueBound:
        "its reply, a file, is itself a request under way: past the member's bound the reply is refused (the /say row), so there is nothing to press",
      stopSkip: true,
    },
    effects: ['speak-in-voice', 'member-words'],
    denied: IN_VOICE_DENIED,
    paysFirst: true,
    ask: async (harness, text, asking, voice) => {
      // The reply (a file, which needs no voice right) is paid first; pressing its button is the asking.
      const { handle } = await ran(harness, {
        guildId: GUILD,
        userId: ALICE,
        name: 'say',
        options: { text, output: 'file', ...voiceOf(voice) },
      });
      const message = (await handle.waitFor((r) => r.files.length > 0, ANSWER_MS)).message ?? {};
      const rows = (message.components ?? []) as Array<{ components: Array<{ custom_id: string }> }>;
      const play = rows.flatMap((row) => row.components).find((b) => b.custom_id.startsWith('sb1:play:'));
      asking();
      const pressed = await harness.discord.pressButton({
        guildId: GUILD,
        userId: ALICE,
        messageId: String(message.id),
        customId: play?.custom_id ?? 'no play button',
      });
      lastAsked = pressed;
      return (await pressed.waitForFinal(ANSWER_MS)).content ?? '';
    },
  },
  {
    name: '"Save as sound" (the soundboard)',
    keeps: {
      budget: 'saves audio already paid for, from the cache, and never calls the Voice API (reply-buttons.test.ts)',
      count: 'shows no count: the reply it saves showed it',
      right: 'saves to the soundboard, speaking in no voice channel (its own right, Create Expressions, is its test)',
      timedOut:
        "saves to the soundboard, speaking nowhere: its right, Create Expressions, is read from the interaction's permissions, which a timeout cuts to View Channel and Read Message History",
      freeLine: 'saves audio already made: it makes no line',
      freeLineCut: 'saves from the cache only, which never keeps a cut free line',
      paidOnce: 'saves audio already paid for, from the cache, and never calls the Voice API (reply-buttons.test.ts)',
      paidThenRefused: 'never pays: it saves audio already paid for, from the cache',
      engineVoice: 'saves audio already made, from the cache, in the voice it was made in: it makes no line',
      queueBound: 'saves to the soundboard: nothing is queued in voice',
      stopSkip: 'saves to the soundboard: nothing plays in voice',
    },
    effects: [],
    denied: {},
  },
  {
    name: 'announcements (auto-read: a member joins or leaves)',
    keeps: {
      budget: "paid by the server, never by the member announced: no member's budget to exceed",
      count: 'posts no words: nothing counted is shown',
      right: 'the member announced is not the one asking: their mute is the rule `denied` below',
      timedOut: 'the member announced is not the one asking: their timeout is the rule `denied` below',
      freeLine: "a name of at most 32 characters with a word: never near the free voice's 120 s",
      freeLineCut: "a name of at most 32 characters with a word: never near the free voice's 120 s",
      paidOnce: 'speaks through the same client as auto-read, whose row says why it is not asked',
      paidThenRefused: 'paid by the server once the name is checked, with no member budget to refuse it afterwards',
      engineVoice:
        "spoken in the server's own voice (no member's voice: the reader's voiceOf is null), which no member chooses",
      queueBound: "auto-read's lines: its own bound holds them, as the auto-read row says",
      stopSkip: "auto-read's lines, played by the same player: the auto-read row is asked /skip and /stop",
    },
    // The member's own name (/myvoice name), spoken in the channel: words a member chose.
    effects: ['speak-in-voice', 'member-words'],
    denied: {
      'server-muted': true,
      'timed-out': true,
      'view-channel': true,
      speak: 'a member denied Speak is checked by the same gate call as a muted one (member-words), asked once here',
      connect: 'the member announced has joined or just left: Connect is not what is spoken for them',
    },
    ask: announce,
  },
  {
    name: "the dashboard's studio",
    keeps: {
      budget:
        'a page, not a command: its rules are held by the same pipeline and tested in a real browser (test/features/dashboard/)',
      count: 'a page, not a command: its count is tested in a real browser (test/features/dashboard/)',
      right: 'asks the same gate through memberVoiceChannel as /scene (dashboard-bot.ts): /scene is asked here',
      timedOut: 'asks the same gate through memberVoiceChannel as /scene (dashboard-bot.ts): /scene is asked here',
      freeLine: 'a scene: /scene is its row',
      freeLineCut: 'a scene: /scene is its row',
      paidOnce: 'a scene: /scene is its row',
      paidThenRefused: 'a scene: /scene is its row',
      engineVoice: 'a scene: /scene is its row',
      queueBound: 'a scene: /scene is its row',
      stopSkip: 'a scene played in voice is one clip of the same player: /say in voice is asked it',
    },
    effects: ['speak-in-voice', 'member-words'],
    denied: {
      'view-channel':
        'its voice target comes from memberVoiceChannel, the gate /scene and /say in voice are asked through here',
      speak: 'its voice target comes from memberVoiceChannel, the gate /scene and /say in voice are asked through here',
      connect:
        'its voice target comes from memberVoiceChannel, the gate /scene and /say in voice are asked through here',
      'server-muted': 'its voice target comes from memberVoiceChannel, as the rule `right` asks of /say in voice',
      'timed-out': 'its voice target comes from memberVoiceChannel, as the rule `timedOut` asks of /say in voice',
    },
  },
  {
    name: "the dashboard's samples",
    keeps: {
      budget: 'a page, not a command: tested in a real browser (test/features/dashboard/)',
      count: 'a page, not a command: tested in a real browser (test/features/dashboard/)',
      right: "plays in the member's own browser: it speaks in no voice channel and posts nothing in Discord",
      timedOut: "plays in the member's own browser: it speaks in no voice channel and posts nothing in Discord",
      freeLine: 'a sample line is short and chosen by the page',
      freeLineCut: 'a sample line is short and chosen by the page',
      paidOnce: 'a page, not a command: tested in a real browser (test/features/dashboard/)',
      paidThenRefused:
        'a sample is quoted first and paid once, its answer is the audio itself (test/features/dashboard/)',
      engineVoice:
        "a page, not a command: an engine voice's sample goes through the same speech path as the rows above; no browser test asks one yet",
      queueBound: "plays in the member's own browser: nothing is queued in voice",
      stopSkip: "plays in the member's own browser: nothing plays in voice",
    },
    effects: [],
    denied: {},
  },
];

/** Takes `right` away from ALICE (DANA, for a mute or View Channel: the announcement row) where the rows speak or post. */
function deny(harness: Harness, right: Denied): () => void {
  const overwrite = (channelId: string, bits: bigint) => {
    harness.discord.setChannelOverwrites(GUILD, channelId, [{ id: ALICE, type: 1, deny: bits }]);
    return () => harness.discord.setChannelOverwrites(GUILD, channelId, []);
  };
  switch (right) {
    case 'view-channel': {
      hideFromDana = true;
      const undo = overwrite(GENERAL, PermissionFlagsBits.ViewChannel);
      return () => {
        hideFromDana = false;
        undo();
      };
    }
    case 'send-messages':
      return overwrite(LONDON_TEXT, PermissionFlagsBits.SendMessages);
    case 'attach-files':
      return overwrite(LONDON_TEXT, PermissionFlagsBits.AttachFiles);
    case 'speak':
      return overwrite(GENERAL, PermissionFlagsBits.Speak);
    case 'connect':
      return overwrite(GENERAL, PermissionFlagsBits.Connect);
    case 'server-muted':
      muteDana = true;
      return () => {
        muteDana = false;
      };
    case 'timed-out':
      timeOutDana = true;
      return () => {
        timeOutDana = false;
      };
  }
}

/** The engine voice the rights and queue rules ask in; another style of the same engine fills a queue before it. */
const ENGINE_VOICE = 'voicevox:10';
const OTHER_ENGINE_VOICE = 'voicevox:11';
/** A paid voice, named where her /myvoice may be an engine's. */
const PAID_VOICE = 'voice-b-en-f-01';
/**
 * How late at most the engine answers the line a late denial is asked in: a bound, the answer hurried as soon as the
 * right is taken away (an event).
 */
const ENGINE_HELD_MS = 60_000;
/** The engine voices the rule `engineVoice` asks in: one of each engine. */
const ENGINE_VOICES = ['voicevox:10', 'speech:bf_emma'] as const;

/** A row asked in a voice: `voice` undefined is the row's own (the paid voice), else an engine voice. */
interface Voiced {
  name: string;
  front: FrontEnd;
  voice: string | undefined;
}

/** Each of `rows` in the paid voice and, where it keeps `engineVoice`, in ENGINE_VOICE as well. */
const voiced = (rows: FrontEnd[]): Voiced[] =>
  rows.flatMap((front) => [
    { name: front.name, front, voice: undefined },
    ...(front.keeps.engineVoice === true
      ? [{ name: `${front.name} in ${ENGINE_VOICE}`, front, voice: ENGINE_VOICE }]
      : []),
  ]);

/** The rows `rule` reaches (FRONT_ENDS order), each in every voice `voiced` gives it. */
const keepingVoiced = (rule: Rule) => voiced(FRONT_ENDS.filter((front) => front.keeps[rule] === true));

/** The lines the engine of `voice` (`voicevox:<style>`, `speech:<name>`) was asked to speak in it, so far. */
function engineCalls(voice: string): number {
  const [engine, id] = voice.split(':') as [string, string];
  if (engine === 'voicevox')
    return voicevox.requests.filter((r) => r.path === '/synthesis' && r.speaker === Number(id)).length;
  return speech.requests.filter((r) => r.path === '/v1/audio/speech' && r.voice === id).length;
}

/** What asking has sent so far: the Voice API's paid requests and, for an engine voice, its engine's lines. */
const sent = (harness: Harness, voice: string | undefined) => ({
  paid: paidRequests(harness),
  engine: voice === undefined ? 0 : engineCalls(voice),
});

/**
 * Runs `asking` with ALICE's /myvoice set to `voice` (the Speak menu and auto-read speak in it; the other rows are
 * given it as their voice option), cleared after. The paid voice (undefined) leaves her /myvoice as it is.
 */
async function inVoice<T>(harness: Harness, voice: string | undefined, asking: () => Promise<T>): Promise<T> {
  if (voice === undefined) return asking();
  const set = await runCommand(harness, {
    guildId: GUILD,
    userId: ALICE,
    name: 'myvoice',
    subcommand: 'set',
    options: { voice },
  });
  expect(set.content).toContain(voice);
  try {
    return await asking();
  } finally {
    const clear = { what: 'voice' };
    await runCommand(harness, { guildId: GUILD, userId: ALICE, name: 'myvoice', subcommand: 'clear', options: clear });
  }
}

/** Resolves once nothing plays or waits in London's voice queue (a rule that plays starts and ends so). */
async function idle(harness: Harness): Promise<void> {
  await expect.poll(() => harness.bot.players.find(GUILD)?.busy ?? false, { timeout: ANSWER_MS }).toBe(false);
}

/** Every row's every right its effects need, asked without it (or said why not). */
const DENIALS = FRONT_ENDS.flatMap((front) =>
  (Object.entries(front.denied) as Array<[Denied, true | string]>)
    .filter(([, asked]) => asked === true)
    .flatMap(([right]) => voiced([front]).map((row) => ({ ...row, right }))),
);

/**
 * Every row that posts a file, asked with each posting right taken away after its order was accepted and paid: the
 * service's answer is held between its charge and SayBot while the right goes (the gate asks again before posting).
 */
const LATE_DENIALS = DENIALS.filter(
  ({ front, right }) =>
    front.effects.includes('attach-file') && (right === 'send-messages' || right === 'attach-files'),
);

const isPrivate = (r: { flags?: number | undefined }) =>
  ((r.flags ?? 0) & MessageFlags.Ephemeral) === MessageFlags.Ephemeral;

/** The rows `rule` reaches. */
const keeping = (rule: Rule) => FRONT_ENDS.filter((front) => front.keeps[rule] === true);

/** How `front` asks; a row that keeps a rule must say how to ask it. */
function askOf(front: FrontEnd): NonNullable<FrontEnd['ask']> {
  if (front.ask === undefined) throw new Error(`${front.name} keeps a rule but says no way to ask it`);
  return front.ask;
}

const PAID = new Set(['tts', 'emotion-tts', 'voice-clone']);
const paidRequests = (harness: Harness) =>
  harness.sandbox.requests.filter((r) => r.endpoint !== undefined && PAID.has(r.endpoint)).length;

/** Characters spent on the harness's books (its own SQLite file): every spend, whichever server or none. */
function booked(harness: Harness): number {
  const db = new DatabaseSync(harness.databasePath, { readOnly: true });
  try {
    const row = db.prepare('SELECT COALESCE(SUM(characters), 0) AS spent FROM spends WHERE cached = 0').get();
    return Number((row as { spent: number }).spent);
  } finally {
    db.close();
  }
}

/** What `userId` spent today (UTC) on the harness's books, whichever server. */
function spentToday(harness: Harness, userId: string): number {
  const db = new DatabaseSync(harness.databasePath, { readOnly: true });
  try {
    const day = new Date().toISOString().slice(0, 10);
    const row = db
      .prepare('SELECT COALESCE(SUM(characters), 0) AS spent FROM spends WHERE cached = 0 AND user_id = ? AND day = ?')
      .get(userId, day);
    return Number((row as { spent: number }).spent);
  } finally {
    db.close();
  }
}

/** The calls the harness's books counted as spent because no answer came (the spend recorder's log line). */
const unanswered = (harness: Harness) =>
  harness
    .logs()
    .split('\n')
    .filter((line) => line.includes('"code":"api-unconfirmed"')).length;

/** The whole numbers in `words`. */
const numbersIn = (words: string) => [...words.matchAll(/\d+/g)].map((m) => Number(m[0]));

/**
 * Her own voice the free one (the Speak menu and /emote speak in it) or cleared again, and auto-read's length (the
 * Speak menu's cut of a message) at `maxLength`.
 */
async function prepare(myvoice: 'set' | 'clear', maxLength: number): Promise<void> {
  const options = myvoice === 'set' ? { voice: 'free-ko-f' } : { what: 'voice' };
  await runCommand(h, { guildId: GUILD, userId: ALICE, name: 'myvoice', subcommand: myvoice, options });
  const length = { max_length: maxLength };
  await runCommand(h, { guildId: GUILD, userId: ALICE, name: 'autoread', subcommand: 'settings', options: length });
}

describe('the rules of speaking, for every front-end', () => {
  it.each(keeping('budget'))(
    "$name: a text over the member's budget is refused naming the cap and its figure, and nothing is requested",
    async (front) => {
      const before = paidRequests(h);
      const words = await askOf(front)(h, 'This text is longer than the twenty characters of her day.', () => {});
      // The refusal's words (failure-words.ts; outside servers, the budget there), or a preview that offers no
      // "Play it" and says which budget, or auto-read's notice to the whole channel, which names the budget and keeps
      // the member's figures private.
      expect(words).toMatch(
        new RegExp(
          `^Your daily budget (in this server|outside servers) is ${DAILY} characters|budget today leaves \\d+ of ${DAILY} characters|` +
            `^Auto-read skipped a message from <@${ALICE}>: their daily character budget in this server is used up`,
        ),
      );
      expect(paidRequests(h)).toBe(before);
    },
  );

  it.each(keeping('count'))(
    "$name: the count it shows is in the service's unit (NFC code points, countCharacters), not as written",
    async (front) => {
      // Written decomposed (NFD): each accent a code point of its own, which the service does not bill.
      const text = 'déjà vu café crème brûlée élève'.normalize('NFD');
      const billed = countCharacters(text);
      expect([...text].length).toBeGreaterThan(billed);
      const before = paidRequests(h);
      const words = await askOf(front)(h, text, () => {});
      expect(numbersIn(words)).toContain(billed);
      expect(numbersIn(words)).not.toContain([...text].length);
      expect(paidRequests(h)).toBe(before);
    },
  );

  it.each(keepingVoiced('right'))(
    '$name: a member a moderator server-muted is refused before anything is paid, in words naming the mute',
    async ({ front, voice }) => {
      // In the world whose members' days have no cap: only the mute can refuse it, whatever the rules run before
      // spent of her day (a row that pays first, as "Play in my voice channel" does, would find it used up).
      const text = 'Muted now.';
      await inVoice(paying, voice, async () => {
        let before = sent(paying, voice);
        paying.discord.setVoiceState(GUILD, ALICE, GENERAL, { mute: true });
        try {
          const words = await askOf(front)(
            paying,
            text,
            () => {
              before = sent(paying, voice);
            },
            voice,
          );
          expect(words).toBe(t('en-US', 'error.voice.memberMuted', { channel: `<#${GENERAL}>` }));
          expect(sent(paying, voice)).toEqual(before);
        } finally {
          paying.discord.setVoiceState(GUILD, ALICE, GENERAL, { mute: false });
        }
      });
    },
  );

  it.each(keepingVoiced('timedOut'))(
    '$name: a member a moderator timed out is refused privately before anything is paid, in words naming the timeout',
    async ({ front, voice }) => {
      // In the world whose members' days have no cap, as for the mute: only the timeout can refuse it.
      const text = `Timed out ${randomUUID().slice(0, 6)}.`;
      await inVoice(paying, voice, async () => {
        let before = { ...sent(paying, voice), billed: paying.sandbox.charactersBilled() };
        let lift: (() => void) | undefined;
        const timedOut = () => {
          before = { ...sent(paying, voice), billed: paying.sandbox.charactersBilled() };
          lift = timeOut(paying.discord, GUILD, ALICE);
        };
        lastAsked = undefined;
        // A row that pays for a reply first is timed out as it asks; any other before it asks.
        if (front.paysFirst !== true) timedOut();
        try {
          const words = await askOf(front)(
            paying,
            text,
            () => {
              if (front.paysFirst === true) timedOut();
            },
            voice,
          );
          expect(lift).toBeDefined();
          expect(words).toBe(t('en-US', 'error.voice.memberTimedOut'));
          expect({ ...sent(paying, voice), billed: paying.sandbox.charactersBilled() }).toEqual(before);
          // Hers alone: whatever answered her is private.
          const answered = (lastAsked as InteractionHandle | undefined)?.responses.filter(
            (r) => r.kind !== 'delete' && r.content !== undefined,
          );
          expect(answered?.length ?? 0).toBeGreaterThan(0);
          expect(answered?.filter((r) => !isPrivate(r) && r.content === words)).toEqual([]);
        } finally {
          lift?.();
          // Without the Guild Members intent the bot hears of the lifted timeout with her next interaction: one now, so
          // that a rule after this one (auto-read reads her from the bot's cache) does not find her still timed out.
          await runCommand(paying, { guildId: GUILD, userId: ALICE, name: 'usage' });
        }
      });
    },
  );

  it.each(keeping('freeLine'))(
    "$name: a line longer than the free voice's 120 s on its estimate is refused before it is made, in words with both figures",
    async (front) => {
      // A 200-digit number, one word and never cut to fit: its part is estimated at 130 s, over the 109 s the cap's
      // margin lets through (a long line of sentences is split into lines instead).
      const number = '1234567890'.repeat(20);
      const text = `오늘은 날씨가 좋네요. ${number}`;
      const estimate = estimateFreeLineSeconds(number, 'free-ko-f');
      await prepare('set', 1000);
      try {
        const before = paidRequests(h);
        const words = await askOf(front)(h, text, () => {}, 'free-ko-f');
        expect(words).toBe(
          t('en-US', 'error.tooLong.freeLineEstimate', {
            seconds: Math.round(estimate),
            max: MAX_FREE_LINE_SECONDS,
            ceiling: Math.floor(estimateCeiling(MAX_FREE_LINE_SECONDS)),
            margin: 10,
          }),
        );
        expect(paidRequests(h)).toBe(before);
      } finally {
        await prepare('clear', DEFAULT_MAX_LENGTH);
      }
    },
  );

  it.each(keeping('freeLineCut'))(
    '$name: a free line whose audio proves longer than its 120 s is delivered cut at the cap, in words that say so',
    async (front) => {
      // Short to write, long to say (test/support/cut-free-line.ts): its estimate lets the line through and its
      // audio, over 120 s, proves it longer than the cap.
      const text = CUT_FREE_LINE;
      expect(estimateFreeLineSeconds(text, 'free-ko-f')).toBeLessThan(estimateCeiling(MAX_FREE_LINE_SECONDS));
      await prepare('set', 1000);
      try {
        const before = paidRequests(h);
        const words = await askOf(front)(h, text, () => {}, 'free-ko-f');
        expect(words).toContain(t('en-US', 'freeLine.cutAtCap', { max: MAX_FREE_LINE_SECONDS }));
        expect(paidRequests(h)).toBe(before);
      } finally {
        await prepare('clear', DEFAULT_MAX_LENGTH);
      }
    },
    150_000,
  );

  it.each(keeping('paidThenRefused'))(
    '$name: work the service was paid for, then refused by a budget, is announced as done, never worded as a refusal',
    async (front) => {
      // The service answers the clone without audio, so its first line is a second paid call of the same length:
      // a line that fits what is left of her day (20) once, and not twice, is paid for the clone, then refused.
      const room = DAILY - spentToday(h, ALICE);
      const length = Math.ceil((room + 1) / 2);
      expect(length).toBeLessThanOrEqual(room);
      h.sandbox.setVariants({ cloneBody: 'json' });
      try {
        const before = { requests: h.sandbox.requests.length, billed: h.sandbox.charactersBilled() };
        const words = await askOf(front)(h, randomUUID().replace(/-/g, '').slice(0, length), () => {});
        const calls = h.sandbox.requests.slice(before.requests).filter((r) => r.endpoint !== undefined);
        expect(
          calls.map((r) => r.endpoint),
          words,
        ).toEqual(['voice-clone']);
        expect(h.sandbox.charactersBilled() - before.billed).toBe(length);
        const voiceId = calls[0]?.clonedVoiceId ?? '?';
        // Made, said first; the line it could not speak said as such, with the budget's words as its reason.
        expect(words).toMatch(/^The new voice "Rule [0-9a-f]{8}" \(`clone_[0-9a-f]+`\) is made and saved/);
        // What was paid for is never called unpaid: no refusal's "Nothing was spent" after the charge.
        expect(words).not.toMatch(/nothing was (spent|paid|charged)/i);
        expect(words).toContain(voiceId);
        expect(words).toContain(
          `Its first line was not spoken: Your daily budget in this server is ${DAILY} characters`,
        );
      } finally {
        h.sandbox.setVariants({ cloneBody: 'audio' });
      }
    },
  );

  it.each(keeping('paidOnce'))(
    '$name: a request the service charged whose answer never came is sent once, paid once, and on the books at least as charged',
    async (front) => {
      const text = `Charged once, ${randomUUID().slice(0, 8)}.`;
      const before = {
        billed: paying.sandbox.charactersBilled(),
        paid: paidRequests(paying),
        booked: booked(paying),
        unanswered: unanswered(paying),
      };
      // The next paid request, whichever endpoint: charged, then its connection reset before the answer left.
      paying.sandbox.injectFault({ kind: 'reset-after-charge' });
      try {
        await askOf(front)(paying, text, () => {});
        // The call is over once its books say no answer came (a voice row may answer before its part is asked for).
        await expect.poll(() => unanswered(paying) - before.unanswered, { timeout: 20_000 }).toBe(1);
        const billed = paying.sandbox.charactersBilled() - before.billed;
        expect(billed).toBeGreaterThan(0);
        // Sent again, it would have been charged again, with one spend on the books for both.
        expect(paidRequests(paying) - before.paid).toBe(1);
        await expect.poll(() => booked(paying) - before.booked).toBeGreaterThanOrEqual(billed);
      } finally {
        paying.sandbox.clearFaults();
      }
    },
  );

  it.each(
    keeping('engineVoice').flatMap((front) => ENGINE_VOICES.map((voice) => ({ name: front.name, front, voice }))),
  )(
    "$name in $voice: the engine speaks it, free (nothing sent to the Voice API nor booked, past her day's budget), and once: asked again it comes from the cache",
    async ({ front, voice }) => {
      // In the world whose members' days hold 20 characters, a line just past that (and short to hear: a row in voice
      // plays it twice): an engine's line costs none of them.
      const text = `Over her day: ${randomUUID().slice(0, 6)}.`;
      expect(countCharacters(text)).toBeGreaterThan(DAILY);
      const clipsOf = () => finishedClips(h.logs()).length;
      await idle(h);
      await inVoice(h, voice, async () => {
        const before = { ...sent(h, voice), billed: h.sandbox.charactersBilled(), booked: booked(h) };
        for (const time of ['first', 'again']) {
          const clips = clipsOf();
          const words = await askOf(front)(h, text, () => {}, voice);
          // Not refused: no budget, no voice "not offered", no failure.
          expect(words, time).not.toMatch(/budget|not offered|could not|Something went wrong/i);
          // A row in voice is done once its line has played (its answer may come as it starts).
          if (front.effects.includes('speak-in-voice')) await expect.poll(clipsOf).toBeGreaterThan(clips);
          expect(sent(h, voice), time).toEqual({ paid: before.paid, engine: before.engine + 1 });
        }
        expect(h.sandbox.charactersBilled()).toBe(before.billed);
        expect(booked(h)).toBe(before.booked);
      });
      await idle(h);
    },
  );

  it.each(FRONT_ENDS.filter((front) => front.keeps.engineVoice === NO_EMOTION))(
    '$name: an engine voice is refused in words, nothing sent to the engine nor to the Voice API',
    async (front) => {
      const before = sent(h, ENGINE_VOICE);
      const words = await askOf(front)(h, 'No emotion here.', () => {}, ENGINE_VOICE);
      expect(words).toBe(t('en-US', 'error.input.emotionEngineVoice', { voice: ENGINE_VOICE }));
      expect(sent(h, ENGINE_VOICE)).toEqual(before);
    },
  );

  it.each(keepingVoiced('queueBound'))(
    "$name: a line past the member's queue bound is refused privately, naming it, and nothing is sent for it",
    async ({ front, voice }) => {
      // Her bound is the default, 3 requests under way: one held ahead in the paid voice (the sandbox keeps its answer
      // until resumed: an event, not a length), two queued behind it in the row's kind of voice (another style of the
      // engine), and this one too many.
      const MEMBER_BOUND = 3;
      await idle(paying);
      await inVoice(paying, voice, async () => {
        const ahead = `Ahead ${randomUUID().slice(0, 6)}.`;
        paying.sandbox.injectFault({ kind: 'hold-after-charge', endpoint: 'tts' });
        const first = await paying.discord.command({
          guildId: GUILD,
          userId: ALICE,
          name: 'say',
          options: [
            { name: 'text', value: ahead },
            { name: 'voice', value: PAID_VOICE },
          ],
        });
        try {
          await expect
            .poll(() => paying.sandbox.requests.some((r) => r.text === ahead && r.outcome === 'held'))
            .toBe(true);
          for (let n = 2; n <= MEMBER_BOUND; n++) {
            const options = { text: `Behind ${n}.`, ...voiceOf(voice === undefined ? undefined : OTHER_ENGINE_VOICE) };
            const queued = await runCommand(paying, { guildId: GUILD, userId: ALICE, name: 'say', options });
            expect(queued.content).toMatch(/^Queued/);
          }
          let before = sent(paying, voice);
          lastAsked = undefined;
          const tooMany = `One too many ${randomUUID().slice(0, 6)}.`;
          const words = await askOf(front)(
            paying,
            tooMany,
            () => {
              before = sent(paying, voice);
            },
            voice,
          );
          expect(words).toBe(t('en-US', 'queue.refused.member', { limit: MEMBER_BOUND }));
          // Nothing of it went to the service (what the lines queued ahead do meanwhile is theirs), nor, in an engine
          // voice, to the engine in the row's style (the queued lines are in another).
          expect(paying.sandbox.requests.some((r) => r.text?.includes(tooMany) === true)).toBe(false);
          expect(sent(paying, voice).engine).toBe(before.engine);
          const answered = (lastAsked as InteractionHandle | undefined)?.responses.filter((r) => r.content === words);
          expect(answered?.length ?? 0).toBeGreaterThan(0);
          expect(answered?.filter((r) => !isPrivate(r))).toEqual([]);
        } finally {
          paying.sandbox.resumePaused();
          paying.sandbox.clearFaults();
          await runCommand(paying, { guildId: GUILD, userId: ALICE, name: 'stop' });
          await first.waitFor((r) => /^(Stopped|Spoke)/.test(r.content ?? ''), ANSWER_MS);
        }
      });
      await idle(paying);
    },
  );

  it.each(keepingVoiced('stopSkip'))(
    '$name: /skip ends its line while it is heard, and so does /stop',
    async ({ front, voice }) => {
      await idle(paying);
      await inVoice(paying, voice, async () => {
        for (const command of ['skip', 'stop'] as const) {
          const text = `A line long enough to be heard and then cut short by ${command}, ${randomUUID().slice(0, 8)}.`;
          const before = sent(paying, voice);
          const clips = finishedClips(paying.logs()).length;
          paying.discord.clearAudio(GUILD);
          // Not awaited: a row may answer only once its line is over.
          const asked = askOf(front)(paying, text, () => {}, voice);
          await paying.discord.waitForPacket(GUILD, (packet) => !packet.silence, ANSWER_MS);
          const answer = await runCommand(paying, { guildId: GUILD, userId: ALICE, name: command });
          expect(answer.content).toBe(
            // ALICE manages the server: her /stop stops whatever plays (nothing of hers is queued behind it).
            command === 'skip' ? t('en-US', 'skip.skipped') : t('en-US', 'stop.stopped', { count: 0 }),
          );
          await asked;
          await expect
            .poll(() =>
              finishedClips(paying.logs())
                .slice(clips)
                .map((clip) => clip.status),
            )
            .toContain(command === 'skip' ? 'skipped' : 'stopped');
          // What was heard was made where the voice says: the engine's line, or the paid voice's.
          const after = sent(paying, voice);
          if (voice === undefined) expect(after.paid).toBeGreaterThan(before.paid);
          else expect(after).toEqual({ paid: before.paid, engine: before.engine + 1 });
          await idle(paying);
        }
      });
    },
  );

  it.each(DENIALS)(
    '$name without $right: SayBot does no more for the member than they may there, and pays nothing for it',
    async ({ front, right, voice }) => {
      const text = `Denied ${right} ${randomUUID().slice(0, 6)}.`;
      await inVoice(paying, voice, async () => {
        let before = sent(paying, voice);
        lastAsked = undefined;
        const undo = deny(paying, right);
        try {
          const words = await askOf(front)(
            paying,
            text,
            () => {
              before = sent(paying, voice);
            },
            voice,
          );
          if (right === 'send-messages' || right === 'attach-files') {
            // Answered privately, the file with it: nothing the member may not post is posted in the channel.
            const asked = lastAsked as InteractionHandle | undefined;
            const withFiles = (asked?.responses ?? []).filter((r) => r.files.length > 0);
            expect(withFiles.length).toBeGreaterThan(0);
            expect(withFiles.filter((r) => !isPrivate(r))).toEqual([]);
            // In an engine voice, the engine made it: one line, nothing sent to the Voice API.
            if (voice !== undefined) expect(sent(paying, voice)).toEqual({ ...before, engine: before.engine + 1 });
          } else if (right === 'server-muted' || right === 'timed-out' || front.ask === announce) {
            // Her name is never sent to the service, so never paid for nor heard.
            expect(words).toBe('');
          } else {
            const key = (
              {
                speak: 'error.voice.memberMayNotSpeak',
                connect: 'error.voice.memberMayNotConnect',
                'view-channel': 'error.voice.memberMayNotView',
              } as const
            )[right];
            expect(words).toBe(t('en-US', key, { channel: `<#${GENERAL}>` }));
            expect(sent(paying, voice)).toEqual(before);
          }
        } finally {
          undo();
          // The right given back reaches the bot as gateway events, in order before the next interaction: a command
          // answered after it means the bot has seen them (auto-read reads a member's rights from its cache as a
          // message arrives, and the next rule must not find this one's denial still there).
          await runCommand(paying, { guildId: GUILD, userId: ALICE, name: 'usage' });
        }
      });
    },
  );

  it.each([
    { how: 'server-muted', bar: () => paying.discord.setVoiceState(GUILD, DANA, GENERAL, { mute: true }) },
    // Timed out after she posted it: Discord tells SayBot nothing of it (no Guild Members intent) unless it asks.
    { how: 'timed out', bar: () => (liftDana = timeOut(paying.discord, GUILD, DANA)) },
    {
      how: 'denied Speak in the voice channel',
      bar: () =>
        paying.discord.setChannelOverwrites(GUILD, GENERAL, [{ id: DANA, type: 1, deny: PermissionFlagsBits.Speak }]),
    },
  ])(
    "the Speak menu on a message by a member $how: the author's words are refused privately, naming why, nothing paid",
    async ({ bar }) => {
      const words = `Dana's own words ${randomUUID().slice(0, 6)}`;
      const before = paidRequests(paying);
      const from = paying.sandbox.requests.length;
      bar();
      try {
        const handle = await paying.discord.messageCommand({
          guildId: GUILD,
          userId: ALICE,
          name: 'Speak',
          message: { author: { id: DANA, username: 'dana' }, content: words },
        });
        const final = await handle.waitFor(finalWords, 60_000);
        expect(isPrivate(final)).toBe(true);
        expect(final.content).toBe(
          t('en-US', 'error.voice.authorMayNotSpeak', { member: `<@${DANA}>`, channel: `<#${GENERAL}>` }),
        );
        expect(spoken(paying, from).some((said) => said.includes(words))).toBe(false);
        expect(paidRequests(paying)).toBe(before);
      } finally {
        liftDana?.();
        liftDana = undefined;
        paying.discord.setVoiceState(GUILD, DANA, GENERAL, { mute: false });
        paying.discord.setChannelOverwrites(GUILD, GENERAL, []);
      }
    },
  );

  it('the Speak menu on a message by a member banned since: refused privately, naming her, nothing paid', async () => {
    // Without the Guild Members intent SayBot is told nothing of the ban; its cache still holds her as a member.
    const words = `Erin's own words ${randomUUID().slice(0, 6)}`;
    const before = paidRequests(paying);
    const from = paying.sandbox.requests.length;
    paying.discord.removeMember(GUILD, ERIN, 'ban');
    const handle = await paying.discord.messageCommand({
      guildId: GUILD,
      userId: ALICE,
      name: 'Speak',
      message: { author: { id: ERIN, username: 'erin' }, content: words },
    });
    const final = await handle.waitFor(finalWords, 60_000);
    expect(isPrivate(final)).toBe(true);
    expect(final.content).toBe(t('en-US', 'error.voice.authorLeft', { member: `<@${ERIN}>` }));
    expect(final.mentioned).toEqual({ users: [], roles: [], everyone: false });
    expect(spoken(paying, from).some((said) => said.includes(words))).toBe(false);
    expect(paidRequests(paying)).toBe(before);
  });

  it('announcements: a member muted in the channel she leaves is not announced leaving, even as the mute is lifted', async () => {
    muteDana = true;
    unmutedLeaving = true;
    try {
      expect(await announce(paying)).not.toContain('left');
    } finally {
      muteDana = false;
      unmutedLeaving = false;
    }
  });

  it.each(LATE_DENIALS)(
    '$name, $right taken away while its paid audio is made: the file comes to the member alone, nothing public',
    async ({ front, right, voice }) => {
      const text = `Late ${right} ${randomUUID().slice(0, 6)}.`;
      // The paid voice's answer is held by the sandbox until resumed, an engine's by its double until hurried: the
      // right taken away as soon as its request is seen.
      const held =
        voice === undefined
          ? () => paying.sandbox.requests.some((r) => (r as { outcome?: string }).outcome === 'held')
          : () =>
              voicevox.requests.some(
                (r) => r.path === '/synthesis' && r.fault?.startsWith('slow:') === true && r.status === undefined,
              );
      if (voice !== undefined) voicevox.faults.set({ fault: `slow:${ENGINE_HELD_MS}`, times: 1, path: '/synthesis' });
      const posts = () =>
        (paying.discord.channelMessages(LONDON_TEXT) as Array<{ attachments?: unknown[] }>).filter(
          (m) => (m.attachments ?? []).length > 0,
        ).length;
      const postedBefore = posts();
      lastAsked = undefined;
      let undo = () => {};
      // A scene is held only once it is confirmed: its preview pays nothing.
      if (voice === undefined) paying.sandbox.injectFault({ kind: 'hold-after-charge' });
      const takeAway = (async () => {
        await expect.poll(held, { timeout: 20_000 }).toBe(true);
        undo = deny(paying, right);
        paying.sandbox.resumePaused();
        paying.sandbox.clearFaults();
        voicevox.hurry();
      })();
      try {
        await askOf(front)(paying, text, () => {}, voice);
        await takeAway;
        const withFiles = (lastAsked as InteractionHandle | undefined)?.responses.filter((r) => r.files.length > 0);
        // The audio was paid for: it is delivered, to her alone.
        expect(withFiles?.length ?? 0).toBeGreaterThan(0);
        expect(withFiles?.filter((r) => !isPrivate(r))).toEqual([]);
        expect(posts()).toBe(postedBefore);
      } finally {
        paying.sandbox.resumePaused();
        paying.sandbox.clearFaults();
        voicevox.faults.set('none');
        voicevox.hurry();
        undo();
      }
    },
  );
});
