// Which kind of test a file is, read from what it uses, so that a new file lands in the right project without a list
// to keep (vitest.config.ts):
// - `wall`: it mostly waits (the bot end to end, a browser, a child process, the demo): many files at once;
// - `own-graph`: it needs a module graph of its own (it mocks a module, or counts what every loaded module
//   registered): one file a worker process, as vitest isolates by default;
// - `unit`: the rest, which use the CPU: one file a core, workers reused across files.
// `npm run test:fast` runs the unit and own-graph files that start no thread, process or real-time audio.
import { readFileSync } from 'node:fs';

export type TestKind = 'wall' | 'unit' | 'own-graph';

/** What makes a file wall-clock-bound: the bot end to end, a browser, a child process, the demo. */
const WALL: readonly RegExp[] = [
  /^test\/(e2e|demo|deploy)\//,
  /support\/(harness|file-harness|local-services|browser|run-child|dashboard|held-relay)\.ts'/,
  /from 'node:child_process'/,
  /from 'playwright-core'/,
  /startBotProcess|startPlayground/,
];

/**
 * What makes a file need its own module graph: a module mock (it must be in place before anything imports the
 * module), a look at every part the loaded modules registered (the catalogue's parts), or a count of the process's
 * timers (another file's leftovers would hide a leak).
 */
const OWN_GRAPH: readonly RegExp[] = [/\bvi\.mock\(/, /\bmessagesParts\(\)/, /getActiveResourcesInfo/];

/**
 * What keeps a unit file out of the fast loop: threads, eSpeak NG, audio played in real time, a sandbox server. A
 * module that starts a thread of its own is named by the path its tests import it by.
 */
const NOT_FAST: readonly RegExp[] = [
  /ThreadPool|JobThread|worker_threads|\/workers\//,
  /autoread\/dictionary\/dictionary(-cache)?\.ts'|usage\/render-png\.ts'/,
  /espeak|free-voice|japanese-analyser/i,
  /GuildPlayer|from '[^']*guild-player\.ts'|voice-sender|playback|startSandbox|FakeDiscord\.start|opus/,
];

const matches = (markers: readonly RegExp[], file: string, source: string): boolean =>
  markers.some((marker) => marker.test(file) || marker.test(source));

/** The kind of the test file at `file` (from the repository's root, with forward slashes). */
export function testKind(file: string, source = readFileSync(file, 'utf8')): TestKind {
  if (matches(WALL, file, source)) return 'wall';
  return matches(OWN_GRAPH, file, source) ? 'own-graph' : 'unit';
}

/** Whether a unit or own-graph file belongs in `npm run test:fast`. */
export function isFast(file: string, source = readFileSync(file, 'utf8')): boolean {
  return testKind(file, source) !== 'wall' && !matches(NOT_FAST, file, source);
}
