// One gate for rights: a speaking right (what a member or SayBot must be allowed where an order posts, attaches,
// speaks or reads) is read in the gate's modules only (src/features/speaking/gate.ts, gate-reading.ts), never by a
// front-end for itself. The rule: outside the gate, no file under src/ or commands/ names a Discord permission the
// gate's table maps (View Channel, Send Messages (in Threads), Attach Files, Send Voice Messages, Connect, Speak,
// Read Message History, Create Expressions) nor reads a voice state's mute or Stage suppression, a timeout, or a
// channel's joinability. Left outside the rule, because no speaking effect is theirs: the app's wiring (src/app/:
// a Stage's request to speak), the dashboard's page authorisation (src/features/dashboard/: Manage Server, the
// member as SayBot sees them), and the rights that say who may manage or stop (Manage Server, Mute or Move Members,
// Manage Messages for slowmode, Set Voice Channel Status), which are not what an order does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './import-graph.ts';

const GATE = new Set(['src/features/speaking/gate.ts', 'src/features/speaking/gate-reading.ts']);
const OUTSIDE_THE_RULE = ['src/app/', 'src/features/dashboard/'];

const RIGHTS = [
  'ViewChannel',
  'SendMessages',
  'SendMessagesInThreads',
  'AttachFiles',
  'SendVoiceMessages',
  'Connect',
  'Speak',
  'ReadMessageHistory',
  'CreateGuildExpressions',
];
/** A speaking right named or read: a permission flag of the table, a voice state's mute or suppression, a timeout. */
const READS_A_RIGHT = new RegExp(
  [
    `PermissionFlagsBits\\.(?:${RIGHTS.join('|')})\\b`,
    `\\.(?:has|any)\\(\\s*\\[?\\s*['"](?:${RIGHTS.join('|')})['"]`,
    '\\.serverMute\\b',
    '\\.suppress\\b',
    '\\bisCommunicationDisabled\\(',
    '\\bcommunicationDisabledUntil',
    '\\.joinable\\b',
  ].join('|'),
  'g',
);

const codeOf = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '');

describe('one gate for rights', () => {
  it('no module outside the gate names or reads a right a speaking effect needs', () => {
    const files = sourceFiles(['src', 'commands']).filter(
      (file) => !GATE.has(file) && !OUTSIDE_THE_RULE.some((folder) => file.startsWith(folder)),
    );
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => [...codeOf(file).matchAll(READS_A_RIGHT)].map((m) => `${file}: ${m[0]}`));
    expect(found).toEqual([]);
  });

  it('the gate itself reads them (the rule would see a front-end that did)', () => {
    const inGate = [...GATE].flatMap((file) => [...codeOf(file).matchAll(READS_A_RIGHT)].map((m) => m[0]));
    for (const right of ['PermissionFlagsBits.Speak', 'PermissionFlagsBits.AttachFiles', '.serverMute'])
      expect(inGate).toContain(right);
  });
});
