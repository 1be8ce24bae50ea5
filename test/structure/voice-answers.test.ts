// Two questions of a /say in voice, each answered in one function of one module (issue 96).
// Whether a clip's packets may leave now (the connection Ready, its transport up, DAVE's group ready with a transition
// applied; the seat's connection not given up, which the library's state says too): src/core/voice/discordjs-voice-seam.ts
// `sendableSession`, awaited by `untilSendable`. The player waits on it before a clip, the worker clip asks it before
// each hand-over and waits on it while held; the sender thread is told its answer (a hold), never asks the library.
// Where it plays (which bot, which voice channel, given the member's voice channel, the seats and the gate):
// src/core/voice/seats.ts `Seats.seatFor`; its callers word its answer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, resolveImport, sourceFiles } from './import-graph.ts';

const SEAM = 'src/core/voice/discordjs-voice-seam.ts';
const SEATS = 'src/core/voice/seats.ts';
const codeOf = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '');
const files = () => sourceFiles(['src', 'commands']);
const where = (pattern: RegExp) => files().filter((file) => pattern.test(codeOf(file)));

/** The names each file of src/ and commands/ imports from `module`. */
function importsFrom(module: string): Record<string, string[]> {
  const taken: Record<string, string[]> = {};
  for (const file of files()) {
    const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      if (resolveImport(file, statement.moduleSpecifier.text) !== module) continue;
      const bindings = statement.importClause?.namedBindings;
      if (bindings === undefined || !ts.isNamedImports(bindings)) continue;
      taken[file] = [...(taken[file] ?? []), ...bindings.elements.map((e) => (e.propertyName ?? e.name).text)];
    }
  }
  return taken;
}

describe("whether a clip's packets may leave", () => {
  it("is read of the library in the seam alone, in one place: the connection's readiness once, DAVE's in sendableSession", () => {
    expect(where(/\bNetworkingStatusCode\b|\blastTransitionId\b|\breinitializing\b|\bprotocolVersion\b/)).toEqual([
      SEAM,
    ]);
    const seam = codeOf(SEAM);
    expect(seam.match(/NetworkingStatusCode\.Ready/g)).toHaveLength(1);
    expect(seam.match(/VoiceConnectionStatus\.Ready/g)).toHaveLength(1);
    const sendable = /export function sendableSession\([^]*?\n}/.exec(seam)?.[0] ?? '';
    expect(sendable).toMatch(/lastTransitionId/);
    expect(seam.match(/lastTransitionId/g)).toHaveLength(1);
  });

  it('is asked of that one answer by the player and the worker clip, and by nothing else', () => {
    const asked = ['sendableSession', 'untilSendable', 'canSendAudio', 'transportReady', 'untilCanSendAudio'];
    const askers = Object.fromEntries(
      Object.entries(importsFrom(SEAM))
        .map(([file, names]) => [file, names.filter((name) => asked.includes(name)).sort()] as const)
        .filter(([, names]) => names.length > 0),
    );
    expect(askers).toEqual({
      'src/core/voice/guild-player.ts': ['untilSendable'],
      'src/core/voice/sender/worker-clip.ts': ['sendableSession', 'untilSendable'],
    });
  });

  it('is waited for in one way (the seam looks again on its own), and the sender thread is told it, never asks', () => {
    expect(where(/\bSESSION_LOOK_MS\b/)).toEqual([SEAM]);
    expect(where(/\bsenderThread\.hold\(/)).toEqual(['src/core/voice/sender/worker-clip.ts']);
    const askers = Object.keys(importsFrom(SEAM)).filter((file) => file.startsWith('src/core/voice/sender/'));
    expect(askers).toEqual(['src/core/voice/sender/worker-clip.ts']);
  });
});

describe('where an order in voice plays', () => {
  it("is Seats.seatFor's answer alone: no caller chooses by the rule's parts or asks the gate around it", () => {
    expect(where(/\.forChannel\(|\.forMember\(|\bchooseSeat\(/)).toEqual([SEATS]);
    expect(where(/\bseats\.seatFor\(/).sort()).toEqual([
      'src/features/autoread/autoread-wiring.ts',
      'src/features/speaking/speaking-command.ts',
    ]);
    // The member's voice channel, auto-read's readings, /join's manager and the gate are what it is given.
    const speaking = codeOf('src/features/speaking/speaking-command.ts');
    const call = /seats\.seatFor\([^]*?\n {2}\}\);/.exec(speaking)?.[0] ?? '';
    for (const given of ['voice.channel', 'reading', 'manager', 'requireAllowed']) expect(call).toContain(given);
    expect(speaking).not.toMatch(/choice\.kind === '(?:busy|read)'/);
  });
});
