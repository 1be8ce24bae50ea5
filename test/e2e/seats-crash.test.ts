// Three seats (the main bot and two helpers) speaking at once in three voice channels of one server when SayBot is
// killed (SIGKILL), as `npm start` runs it: after the restart, one set of books equal to what the sandbox billed, each
// line written once, nothing left to a process that is gone, nothing paid twice.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { FakeBotApplication, FakeGuildSpec } from '@saybot/local-discord';
import { addHelpers, APP_ID, startLocalServices, type LocalServices } from '../support/harness.ts';
import { runChild, type ChildRun } from '../support/run-child.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GUILD = '200000000000000941';
const CHANNELS = ['220000000000000941', '220000000000000942', '220000000000000943'];
const MEMBERS = ['300000000000000941', '300000000000000942', '300000000000000943'];
const TEXTS = [
  'The lounge hears a long first line while the others speak too.',
  'The study hears a second long line at the very same time.',
  'The games room hears a third long line until the host dies.',
];

const guild: FakeGuildSpec = {
  id: GUILD,
  name: 'Rooms',
  textChannelId: '210000000000000941',
  voiceChannels: CHANNELS.map((id, at) => ({ id, name: `room-${at}` })),
  members: MEMBERS.map((id, at) => ({ id, username: `member-${at}`, voiceChannelId: CHANNELS[at]!, locale: 'en-US' })),
};

let local: LocalServices;
let helpers: FakeBotApplication[];
let dir: string;
beforeAll(async () => {
  local = await startLocalServices({ guilds: [guild] });
  helpers = addHelpers(local.discord, 2, [GUILD]);
  dir = mkdtempSync(path.join(tmpdir(), 'saybot-seats-crash-'));
  // The child trusts the local voice gateway's self-signed certificate as an owner's host would a CA's.
  writeFileSync(path.join(dir, 'local-discord.pem'), local.discord.caCertificatePem);
});
afterAll(async () => {
  await local?.close();
  rmSync(dir, { recursive: true, force: true });
});

const databaseFile = () => path.join(dir, 'saybot.sqlite');

async function startBot(): Promise<{ kill(signal: NodeJS.Signals): void; exited: Promise<ChildRun> }> {
  let signal: ((name: NodeJS.Signals) => void) | undefined;
  let ready: () => void = () => undefined;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const exited = runChild(process.execPath, ['src/bin/start.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      NODE_EXTRA_CA_CERTS: path.join(dir, 'local-discord.pem'),
      DOTENV_CONFIG_PATH: '/nonexistent',
      DATABASE_URL: `sqlite:${databaseFile()}`,
      CACHE_DIR: path.join(dir, 'cache'),
      DISCORD_TOKEN: local.token,
      HELPER_BOT_TOKENS: helpers.map((helper) => helper.token).join(','),
      DISCORD_CLIENT_ID: APP_ID,
      DISCORD_API_BASE_URL: local.discord.restUrl,
      VOICE_API_BASE_URL: local.sandbox.url,
      VOICE_API_KEY: local.sandbox.testKey,
      BUDGET_GUILD_MONTHLY_CHARS: '100000',
      BUDGET_MEMBER_DAILY_CHARS: '0',
      BUDGET_MEMBER_COOLDOWN_SECONDS: '0',
      BUDGET_BOT_MONTHLY_CHARS: '0',
      BUDGET_MEMBER_FREE_PER_MINUTE: '0',
    },
    killAfterMs: 90_000,
    onStdout: (stdout, send) => {
      signal = send;
      if (/SayBot is ready/.test(stdout)) ready();
    },
  });
  await Promise.race([
    isReady,
    exited.then((run) => {
      throw new Error(`SayBot exited before it was ready: ${run.stderr || run.stdout}`);
    }),
  ]);
  return { kill: (name) => signal?.(name), exited };
}

function paidRows(): { characters: number; owner: string | null }[] {
  const db = new DatabaseSync(databaseFile(), { readOnly: true });
  try {
    return db
      .prepare('SELECT characters, owner FROM spends WHERE cached = 0 ORDER BY id')
      .all()
      .map((row) => ({ ...row }) as unknown as { characters: number; owner: string | null });
  } finally {
    db.close();
  }
}

it('killed with three seats speaking: the books after the restart equal what the sandbox billed, nothing twice', async () => {
  const first = await startBot();
  const said = [];
  for (const [at, text] of TEXTS.entries()) {
    const handle = await local.discord.command({
      guildId: GUILD,
      userId: MEMBERS[at]!,
      name: 'say',
      options: [{ name: 'text', value: text }],
      locale: 'en-US',
    });
    // Heard before the next asks: each takes a seat of its own.
    await handle.waitFor((r) => (r.content ?? '').includes('Speaking'), 30_000);
    said.push(handle);
  }
  const bots = [APP_ID, ...helpers.map((helper) => helper.userId)];
  expect(bots.map((bot) => local.discord.botVoiceChannel(GUILD, bot))).toEqual(CHANNELS);
  await vi.waitFor(() => expect(local.sandbox.charactersBilled()).toBe(TEXTS.join('').length), { timeout: 10_000 });
  first.kill('SIGKILL');
  expect((await first.exited).code).toBeNull();
  const billed = local.sandbox.charactersBilled();

  const second = await startBot();
  try {
    const usage = await local.discord.command({ guildId: GUILD, userId: MEMBERS[0]!, name: 'usage', locale: 'en-US' });
    const reply = await usage.waitFor((r) => /This server: [\d,]+ characters spent/.test(r.content ?? ''), 45_000);
    const shown = Number(/This server: ([\d,]+) characters spent/.exec(reply.content ?? '')?.[1]?.replace(/,/g, ''));
    expect(shown).toBe(billed);
  } finally {
    second.kill('SIGTERM');
  }
  await second.exited;
  const rows = paidRows();
  // One row per line, whatever seat spoke it; none left to the process that died.
  expect(rows.map((row) => row.characters).sort()).toEqual(TEXTS.map((text) => text.length).sort());
  expect(rows.filter((row) => row.owner !== null)).toEqual([]);
  expect(local.sandbox.charactersBilled()).toBe(billed);
}, 180_000);
