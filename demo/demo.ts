// `npm run demo`: SayBot seen working with no Discord account and no API key. The sandbox Voice API and the local
// Discord run in this process; SayBot runs as `npm start` runs it (`node src/bin/start.ts`, configured only by its
// environment) in a child process. A member then uses three commands, and what the voice channel heard (decrypted
// from DAVE, decoded from Opus), the files SayBot sent and the replies are written to `outDir`.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import {
  DEFAULT_PERMISSIONS,
  type FakeDiscord,
  type BotProcess,
  type FakeGuildSpec,
  type HeardAudio,
  type InteractionHandle,
  type InteractionResponse,
} from '@saybot/local-discord';
import { startLocalStack } from '@saybot/playground';
import { freeVoiceInstalled } from '../src/core/free-voice/free-voice-engine.ts';
import { encodeWav } from '@saybot/voice-sandbox/synth.ts';

const RATE = 48_000;

const GUILD: FakeGuildSpec = {
  id: '200000000000000001',
  name: 'Demo server',
  preferredLocale: 'en-US',
  textChannelId: '210000000000000001',
  voiceChannels: [{ id: '220000000000000001', name: 'Lounge' }],
  members: [
    { id: '300000000000000001', username: 'alice', voiceChannelId: '220000000000000001', locale: 'en-US' },
    { id: '300000000000000002', username: 'bob', locale: 'en-US' },
    { id: '300000000000000003', username: 'carol', locale: 'en-US' },
    // The demo manager: Manage Server through a role, pre-authorized and signed in at the local Discord's login.
    {
      id: '300000000000000004',
      username: 'dana',
      locale: 'en-US',
      permissions: PermissionFlagsBits.ManageGuild,
      avatar: true,
    },
  ],
  // An icon and the manager's avatar, drawn and served by the local Discord's CDN (the dashboard shows them).
  icon: true,
  // As a Discord server by default: members (and SayBot) may send voice messages.
  everyonePermissions: DEFAULT_PERMISSIONS | PermissionFlagsBits.SendVoiceMessages,
  botPermissions: DEFAULT_PERMISSIONS | PermissionFlagsBits.SendVoiceMessages,
};
type Member = FakeGuildSpec['members'][number];
const [ALICE, BOB, CAROL, DANA] = GUILD.members as [Member, Member, Member, Member];
/** The member the demo's browser is logged in as: she manages the demo server (Manage Server). */
export const DEMO_MANAGER: Member = DANA;
/** A member who manages nothing: the dashboard as most people see it (the bench weighs their pages too). */
export const DEMO_MEMBER: Member = ALICE;
export const DEMO_GUILD_ID = GUILD.id;
const VOICE_CHANNEL = GUILD.voiceChannels[0]!;
const NAMES = new Map([
  [GUILD.textChannelId, '#general'],
  [VOICE_CHANNEL.id, `#${VOICE_CHANNEL.name}`],
  ...GUILD.members.map((m) => [m.id, `@${m.username}`] as const),
]);

/**
 * Who asks for what (text and options of /say). Three members, as SayBot's default budgets give each member a
 * few seconds' cooldown between requests.
 */
export const DEMO_COMMANDS = {
  voice: {
    member: ALICE,
    options: { text: 'Hello from SayBot! This is what the voice channel hears.', voice: 'voice-b-en-f-01' },
  },
  file: { member: BOB, options: { text: 'This one comes back as a file.', voice: 'voice-b-en-m-01', output: 'file' } },
  voiceMessage: {
    member: CAROL,
    options: {
      text: 'And this one is a voice message in the channel.',
      voice: 'voice-b-en-f-02',
      output: 'voice-message',
    },
  },
} as const;
type DemoCommand = (typeof DEMO_COMMANDS)[keyof typeof DEMO_COMMANDS];

export interface DemoOptions {
  outDir: string;
  /** Progress lines for the person watching; default: none. */
  log?: (line: string) => void;
  /** Ends the demo early (a timeout): everything started is stopped. */
  signal?: AbortSignal;
  /**
   * What the sandbox's voices sound like: words (SayBot's free voice, eSpeak NG, when its optional package is
   * installed: the default then) or test tones (the default without it).
   */
  speech?: 'words' | 'tones';
  /**
   * Runs once the three commands are done, with everything still running (the screenshot script looks at pages
   * then); the demo stops the stack when it returns.
   */
  whileRunning?: (stack: DemoStack) => Promise<void>;
}

/** What runs during the demo, for whileRunning. */
export interface DemoStack {
  /** The local Discord: `discord.oauth2` is its login (the demo manager is signed in and pre-authorized there). */
  discord: FakeDiscord;
  /** The sandbox Voice API's base URL. */
  voiceApiUrl: string;
  /** SayBot's dashboard; opening its /login comes back logged in as the demo manager. */
  dashboardUrl: string;
  /** The demo's server. */
  guildId: string;
}

export interface DemoResult {
  /** What the voice channel heard, 48 kHz mono WAV. */
  heardWav: string;
  heardSeconds: number;
  /** Words or tones (DemoOptions.speech). */
  speech: 'words' | 'tones';
  /** With tones, how long the sandbox makes the spoken text: what the channel should have heard. */
  expectedSeconds: number | undefined;
  transcript: string;
  /** The file SayBot sent for `output: file`, and the voice message it posted. */
  sentFile: string;
  voiceMessage: string;
  /** SayBot's own log lines (JSON), for when something went wrong. */
  botLog: string;
  /** Where SayBot served its dashboard while the demo ran. */
  dashboardUrl: string;
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const log = options.log ?? (() => undefined);
  const out = (name: string) => path.join(options.outDir, name);
  mkdirSync(options.outDir, { recursive: true });
  const stops: Array<() => Promise<void>> = [];
  let finished = false;
  /** Keeps what was started for the end; started after the end (the demo was stopped meanwhile), stopped at once. */
  const own = async (stop: () => Promise<void>): Promise<void> => {
    if (!finished) return void stops.push(stop);
    await stop().catch(() => undefined);
    throw new Error('the demo was stopped');
  };
  let bot: BotProcess | undefined;
  // Written however far the demo got, so a failure shows what happened before it.
  const transcript: string[] = [
    `SayBot demo, ${new Date().toISOString()}: the local Discord, the sandbox Voice API and SayBot as \`npm start\` runs it.`,
    `Server "${GUILD.name}": ${ALICE.username} is in the voice channel ${VOICE_CHANNEL.name}; ${BOB.username} and ${CAROL.username} are not; ${DANA.username} manages the server.`,
    '',
  ];

  const speech = options.speech ?? (freeVoiceInstalled() ? 'words' : 'tones');
  const run = async (): Promise<DemoResult> => {
    const { sandbox, discord, dashboardUrl } = await startLocalStack({
      speech,
      // The demo manager owns the application, as the person running SayBot does: the owner's console is hers.
      discord: { guilds: [GUILD], applicationOwnerId: DEMO_MANAGER.id },
      own,
      beforeBot: signInDemoManager,
      botStarted: (started) => (bot = started),
      log,
    });
    log(`SayBot is ready; ${discord.registeredCommands().length} slash commands registered`);
    log(`dashboard on ${dashboardUrl} (its /login comes back logged in as ${DEMO_MANAGER.username}, the demo manager)`);

    // 1. /say in the member's voice channel: SayBot joins it and speaks.
    discord.clearAudio(GUILD.id);
    const spoken = await say(discord, DEMO_COMMANDS.voice, (r) => (r.content ?? '').startsWith('Spoke'));
    const expectedSeconds =
      speech === 'tones' ? sandbox.expectedDurationSeconds(DEMO_COMMANDS.voice.options.text) : undefined;
    const heard = await discord.waitForAudio(GUILD.id, {
      // Words take as long as eSpeak NG says them: the channel is heard until it falls quiet.
      minSeconds: expectedSeconds === undefined ? 1 : Math.max(0.1, expectedSeconds - 0.1),
      quietMs: 400,
      timeoutMs: 20_000,
    });
    writeFileSync(out('voice-channel.wav'), encodeWav(monoOf(heard), RATE));
    transcript.push(
      ...exchange(DEMO_COMMANDS.voice, spoken),
      `   Heard in ${VOICE_CHANNEL.name}: ${heard.seconds.toFixed(1)} s of audio -> voice-channel.wav`,
      '',
    );
    log(`/say: ${VOICE_CHANNEL.name} heard ${heard.seconds.toFixed(1)} s`);

    // 2. /say output:file: the audio comes back as an attachment.
    const filed = await say(discord, DEMO_COMMANDS.file, (r) => r.files.length > 0);
    const file = filed.responses.flatMap((r) => r.files)[0]!;
    const sentFile = `say-file${path.extname(file.name) || '.audio'}`;
    writeFileSync(out(sentFile), file.data);
    transcript.push(
      ...exchange(DEMO_COMMANDS.file, filed),
      `   Attached: ${file.name} (${file.data.length} bytes) -> ${sentFile}`,
      '',
    );
    log(`/say output:file: ${file.name}`);

    // 3. /say output:voice-message: the command's own public response, shown as carol's use of /say.
    const isVoiceMessage = (r: InteractionResponse) =>
      ((Number(r.message?.['flags']) || 0) & MessageFlags.IsVoiceMessage) !== 0 && r.files.length > 0;
    const voiced = await say(discord, DEMO_COMMANDS.voiceMessage, isVoiceMessage);
    const ogg = voiced.responses.find(isVoiceMessage)?.files[0];
    if (!ogg) throw new Error('the voice message has no file');
    writeFileSync(out('voice-message.ogg'), ogg.data);
    transcript.push(
      ...exchange(DEMO_COMMANDS.voiceMessage, voiced),
      `   Posted in #general as ${CAROL.username}'s /say: a voice message -> voice-message.ogg`,
      '',
    );
    log('/say output:voice-message: posted in #general');

    if (options.whileRunning)
      await options.whileRunning({ discord, voiceApiUrl: sandbox.url, dashboardUrl, guildId: GUILD.id });

    return {
      heardWav: out('voice-channel.wav'),
      heardSeconds: heard.seconds,
      speech,
      expectedSeconds,
      transcript: out('transcript.txt'),
      sentFile: out(sentFile),
      voiceMessage: out('voice-message.ogg'),
      botLog: out('saybot.log'),
      dashboardUrl,
    };
  };

  const work = run();
  work.catch(() => undefined); // raced below; its own rejection after an abort is not news
  try {
    return await Promise.race([work, aborted(options.signal)]);
  } finally {
    finished = true;
    // Stopped in reverse: SayBot first (it leaves voice and closes its store), then the servers it used.
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    writeFileSync(out('transcript.txt'), transcript.join('\n'));
    if (bot) writeFileSync(out('saybot.log'), bot.output());
  }
}

/**
 * The browser's Discord session in the demo: the demo manager is signed in to the local Discord and has authorized
 * SayBot's login (`identify guilds`) before, so a login with `prompt=none` comes straight back logged in as her,
 * and the consent page, when shown, has her preselected.
 */
export function signInDemoManager(discord: FakeDiscord): void {
  discord.oauth2.preauthorize(DEMO_MANAGER.id, ['identify', 'guilds']);
  discord.oauth2.signIn(DEMO_MANAGER.id);
}

/**
 * Runs /say as the command's member; resolves once a reply (or the local Discord's state) shows it done. When that
 * does not come, the error says what SayBot answered instead.
 */
async function say(
  discord: FakeDiscord,
  command: DemoCommand,
  done: (r: InteractionResponse) => boolean,
): Promise<InteractionHandle> {
  const handle = await discord.command({
    guildId: GUILD.id,
    userId: command.member.id,
    name: 'say',
    locale: command.member.locale ?? 'en-US',
    options: Object.entries(command.options).map(([name, value]) => ({ name, value })),
  });
  try {
    await handle.waitFor(done, 30_000);
  } catch {
    const said = replies(handle).at(-1);
    throw new Error(
      `/say ${typed(command)}: ${said === undefined ? 'SayBot did not answer' : `SayBot answered "${said}"`}`,
    );
  }
  return handle;
}

const typed = (command: DemoCommand) =>
  Object.entries(command.options)
    .map(([name, value]) => `${name}: ${value}`)
    .join('  ');
const replies = (handle: InteractionHandle) =>
  handle.responses
    .filter((r) => r.kind !== 'delete' && r.content !== undefined && r.content !== '')
    .map((r) => readable(r.content ?? ''));

/** The command as the member typed it and every reply SayBot gave, as the member saw them. */
function exchange(command: DemoCommand, handle: InteractionHandle): string[] {
  const who = command.member.username;
  const privately = ((handle.responses[0]?.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
  return [
    `${who}: /say ${typed(command)}`,
    ...replies(handle).map(
      (text) => `   SayBot (${privately ? `only ${who} sees this` : 'everyone sees this'}): ${text}`,
    ),
  ];
}

/** Discord's mention syntax as a client shows it. */
function readable(content: string): string {
  return content.replace(/<[#@]!?(\d+)>/g, (whole, id: string) => NAMES.get(id) ?? whole);
}

/** The heard 48 kHz stereo as mono 16-bit samples (SayBot sends the same sound on both channels). */
function monoOf(heard: HeardAudio): Int16Array {
  const mono = new Int16Array(heard.pcm.length >> 1);
  for (let i = 0; i < mono.length; i++) mono[i] = ((heard.pcm[2 * i] ?? 0) + (heard.pcm[2 * i + 1] ?? 0)) >> 1;
  return mono;
}

function aborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (!signal) return;
    const fail = () => reject(signal.reason instanceof Error ? signal.reason : new Error('the demo was stopped'));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}
