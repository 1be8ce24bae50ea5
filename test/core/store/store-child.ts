// A separate process on the same database file, for the concurrency and crash tests (run by test/core/store/*.test.ts).
// Usage: node store-child.ts <file> <mode> [args]. It prints "ready" and, for the crash modes, then waits to be killed.
import { DatabaseSync } from 'node:sqlite';
import { openSqliteStore } from '../../../src/app/store.ts';

const [file, mode, arg = ''] = process.argv.slice(2);
if (file === undefined || mode === undefined) throw new Error('usage: store-child.ts <file> <mode> [arg]');
const GUILD = '900000000000000001';
const hang = () => setInterval(() => undefined, 60_000);

if (mode === 'writes') {
  // Two separate writes, each committed, then the process is killed before it can close anything.
  const store = openSqliteStore(file);
  await store.presets.save({ guildId: GUILD, name: 'first', voice: 'voice-b-ko-m-01', createdBy: 'child' });
  await store.memberDefaults.set(GUILD, '900000000000000009', { voice: 'voice-b-ja-f-01', tone: 'calm' });
  process.stdout.write('ready\n');
  hang();
} else if (mode === 'mid-transaction') {
  // A write spanning two rows, interrupted between them: the process dies with the transaction open.
  openSqliteStore(file); // migrated and in WAL mode, as the bot leaves it
  const db = new DatabaseSync(file, { timeout: 5000 });
  db.exec('BEGIN IMMEDIATE');
  db.prepare(
    `INSERT INTO presets (guild_id, name, name_key, voice, created_by, created_at) VALUES (?, 'half', 'half', 'voice-b-en-m-01', 'child', 0)`,
  ).run(GUILD);
  db.prepare(`UPDATE presets SET voice = 'voice-b-en-m-01' WHERE guild_id = ? AND name_key = 'kept'`).run(GUILD);
  process.stdout.write('ready\n');
  hang();
} else if (mode === 'many') {
  // `arg` presets named <arg>-0, <arg>-1, ..., each its own transaction, yielding between them.
  const store = openSqliteStore(file);
  for (let i = 0; i < 40; i++) {
    await store.presets.save({ guildId: GUILD, name: `${arg}-${i}`, voice: 'voice-b-ko-f-01', createdBy: arg });
    await store.memberDefaults.set(GUILD, '900000000000000009', { tone: `${arg}-${i}` });
    await new Promise((r) => setImmediate(r));
  }
  await store.close();
  process.stdout.write('ready\n');
} else {
  throw new Error(`unknown mode ${mode}`);
}
