// One gate for rights: a speaking right (what a member or SayBot must be allowed where an order posts, attaches,
// speaks or reads) is read in the gate's modules only (src/features/speaking/gate.ts, gate-reading.ts), never by a
// front-end for itself. The rule: outside the gate, no file under src/ or commands/ names a Discord permission the
// gate's table maps (View Channel, Send Messages (in Threads), Attach Files, Send Voice Messages, Connect, Speak,
// Read Message History, Create Expressions) nor reads a voice state's mute or Stage suppression, a timeout, or a
// channel's joinability. Left outside the rule, because no speaking effect is theirs: the app's wiring (src/app/),
// the voice join (src/core/voice/guild-player.ts: on a Stage, SayBot making itself a speaker), the dashboard's page authorisation (src/features/dashboard/: Manage Server, the
// member as SayBot sees them), and the rights that say who may manage or stop (Manage Server, Mute or Move Members,
// Manage Messages for slowmode, Set Voice Channel Status), which are not what an order does.
//
// And one asker: an order's questions (may it be accepted, may its next part play, may it be posted publicly) are
// asked in one place, the gate's rightsPort (src/features/speaking/gate.ts), which makes of them the core's rights port
// (src/core/order/rights.ts `OrderRights`, type-only): the gate answers them itself, as the port it exports (`gatePort`):
// the gate's functions that answer them (judge, recheck, mustPostPrivately) are taken from it by no other file, directly
// or through the feature's index.ts; the questions' three methods are called in that one file; the port is handed to
// the pipeline by the app (src/app/start-saybot.ts) and imported nowhere else, and every other rights question (a
// voice message's claim as its target is chosen, auto-read's mute and deafen checks, the dashboard's and the studio's)
// asks the port the pipeline holds. Which of the gate's declarations reach its questions is read from what their
// bodies name, not from their names: a wrapper exported beside the port is a side door. What else the gate exports
// reads rights where SayBot posts with its own or no order exists (SayBot's right to post a voice message, a leave
// judged by the channel left, the table itself), each listed below with the one module that imports it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, resolveImport, sourceFiles } from './import-graph.ts';

const GATE = new Set(['src/features/speaking/gate.ts', 'src/features/speaking/gate-reading.ts']);
const OUTSIDE_THE_RULE = ['src/app/', 'src/core/voice/guild-player.ts', 'src/features/dashboard/'];

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

const GATE_MODULE = 'src/features/speaking/gate.ts';
const SPEAKING_INDEX = 'src/features/speaking/index.ts';
/** The port's implementation: the gate itself. */
const PORT_IMPLEMENTATION = GATE_MODULE;
/** Where the questions are asked: the gate's rightsPort, which makes the core's port of them. */
const ASKER = GATE_MODULE;
/** The gate's functions that answer an order's questions (and its thrown form, should one come back). */
const ORDER_QUESTIONS = new Set(['judge', 'recheck', 'mustPostPrivately', 'postsPrivately', 'requireAllowed']);

/** The names a file imports or re-exports from each repository module (`import type` included). */
function namedImports(file: string): Array<{ from: string; names: string[] }> {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const found: Array<{ from: string; names: string[] }> = [];
  for (const statement of source.statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    const from = specifier === undefined ? undefined : resolveImport(file, specifier);
    if (from === undefined) continue;
    const names: string[] = [];
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings !== undefined && ts.isNamedImports(bindings))
        for (const element of bindings.elements) names.push((element.propertyName ?? element.name).text);
      if (bindings !== undefined && ts.isNamespaceImport(bindings)) names.push('*');
    } else if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause === undefined) names.push('*');
      else if (ts.isNamedExports(clause))
        for (const element of clause.elements) names.push((element.propertyName ?? element.name).text);
    }
    found.push({ from, names });
  }
  return found;
}

/** file -> the names it takes from `modules`, for every file of src/ and commands/ but `besides`. */
function importersOf(modules: readonly string[], besides: readonly string[]): Record<string, string[]> {
  const taken: Record<string, string[]> = {};
  for (const file of sourceFiles(['src', 'commands'])) {
    if (besides.includes(file)) continue;
    const names = namedImports(file)
      .filter((edge) => modules.includes(edge.from))
      .flatMap((edge) => edge.names);
    if (names.length > 0) taken[file] = [...new Set(names)].sort();
  }
  return taken;
}

describe('one asker of the rights', () => {
  it("no module takes an order's questions from the gate, directly or through index.ts: the gate is the port", () => {
    const fromGate = importersOf([GATE_MODULE, SPEAKING_INDEX], [GATE_MODULE, SPEAKING_INDEX]);
    const askers = Object.entries(fromGate)
      .filter(([, names]) => names.some((name) => ORDER_QUESTIONS.has(name) || name === '*'))
      .map(([file]) => file);
    expect(askers).toEqual([]);
    // The feature's index.ts passes none of them on.
    const passedOn = namedImports(SPEAKING_INDEX)
      .filter((edge) => edge.from === GATE_MODULE)
      .flatMap((edge) => edge.names);
    expect(passedOn.filter((name) => ORDER_QUESTIONS.has(name) || name === '*')).toEqual([]);
  });

  it('the rest of the gate is taken for what is not an order, each by the one module listed', () => {
    expect(importersOf([GATE_MODULE], [GATE_MODULE])).toEqual({
      // The port for the app, and a leave judged by the channel left, as auto-read receives it: through index.ts.
      [SPEAKING_INDEX]: ['gatePort', 'leftBarred'],
      // SayBot's own rights to post a voice message it was asked for (else it answers with a file).
      'src/features/speaking/voice-message-post.ts': ['botMayPostVoiceMessage'],
    });
  });

  it("the port's questions are asked in one file, the gate's, and its implementation is the app's to give", () => {
    const asking = sourceFiles(['src', 'commands']).filter((file) =>
      /\.(?:mayAccept|mayPlay|mayPost)\(/.test(codeOf(file)),
    );
    expect(asking).toEqual([ASKER]);
    // The pipeline holds the port it is given by the app (without one, the core's own tests, it allows all).
    expect(codeOf('src/core/order/pipeline.ts')).toMatch(/this\.rights = options\.rights \?\? NO_RIGHTS/);
    // And the port is made in the gate alone (rightsPort), besides the pipeline's own allowing all without one.
    const makers = sourceFiles(['src', 'commands']).filter((file) => /\)?:\s*OrderRights\s*[={]/.test(codeOf(file)));
    expect(makers).toEqual(['src/core/order/pipeline.ts', ASKER]);
    expect(codeOf('src/app/start-saybot.ts')).toMatch(/\brights: gatePort\b/);
    const implementationTakers = importersOf([PORT_IMPLEMENTATION, SPEAKING_INDEX], [SPEAKING_INDEX]);
    expect(
      Object.entries(implementationTakers)
        .filter(([, names]) => names.includes('gatePort'))
        .map(([file]) => file),
    ).toEqual(['src/app/start-saybot.ts']);
  });

  it('reads what a file takes from a module, re-exports included (the rules would see an asker that slipped in)', () => {
    expect(namedImports('src/core/order/pipeline.ts')).toContainEqual({
      from: 'src/core/order/rights.ts',
      names: ['RightsRevokedError', 'OrderRights', 'RightsAnswered'],
    });
    expect(namedImports(SPEAKING_INDEX)).toContainEqual({
      from: PORT_IMPLEMENTATION,
      names: ['gatePort', 'leftBarred'],
    });
  });
});

/** The gate's top-level declarations: whether each is exported, and which of the others its body names. */
function declarationsOf(file: string): Map<string, { exported: boolean; names: Set<string> }> {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found = new Map<string, { exported: boolean; names: Set<string> }>();
  const exportedByClause = new Set<string>();
  const identifiersIn = (node: ts.Node): Set<string> => {
    const names = new Set<string>();
    const walk = (child: ts.Node): void => {
      if (ts.isIdentifier(child)) names.add(child.text);
      ts.forEachChild(child, walk);
    };
    walk(node);
    return names;
  };
  const isExported = (statement: ts.Statement) =>
    ts.canHaveModifiers(statement) &&
    (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name !== undefined)
      found.set(statement.name.text, { exported: isExported(statement), names: identifiersIn(statement) });
    else if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name))
          found.set(declaration.name.text, { exported: isExported(statement), names: identifiersIn(declaration) });
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier === undefined) {
      const clause = statement.exportClause;
      if (clause !== undefined && ts.isNamedExports(clause))
        for (const element of clause.elements) exportedByClause.add((element.propertyName ?? element.name).text);
    }
  }
  for (const name of exportedByClause) {
    const declaration = found.get(name);
    if (declaration !== undefined) declaration.exported = true;
  }
  return found;
}

describe("the gate's questions reached only through the port", () => {
  it('no export of the gate but the port reaches judge, recheck or mustPostPrivately, by what each body calls, whatever it is named', () => {
    const declarations = declarationsOf(GATE_MODULE);
    for (const question of ['judge', 'recheck', 'mustPostPrivately']) {
      expect(declarations.has(question), question).toBe(true);
      expect(declarations.get(question)?.exported, `${question} is exported`).toBe(false);
    }
    const reaches = (start: string): Set<string> => {
      const seen = new Set<string>();
      const queue = [start];
      while (queue.length > 0) {
        const name = queue.pop()!;
        for (const next of declarations.get(name)?.names ?? []) {
          if (next === name || seen.has(next) || !declarations.has(next)) continue;
          seen.add(next);
          queue.push(next);
        }
      }
      return seen;
    };
    const sideDoors = [...declarations]
      .filter(([name, declaration]) => declaration.exported && name !== 'gatePort')
      .flatMap(([name]) =>
        [...reaches(name)].filter((reached) => ORDER_QUESTIONS.has(reached)).map((reached) => `${name} -> ${reached}`),
      );
    expect(sideDoors).toEqual([]);
    // The port itself reaches all three (the check would see it lose one).
    expect([...reaches('gatePort')].filter((name) => ORDER_QUESTIONS.has(name)).sort()).toEqual([
      'judge',
      'mustPostPrivately',
      'recheck',
    ]);
  });

  it('the other modules of the speaking feature and auto-read take nothing from the gate but what is listed above', () => {
    const takers = Object.keys(importersOf([GATE_MODULE], [GATE_MODULE])).sort();
    expect(takers).toEqual([SPEAKING_INDEX, 'src/features/speaking/voice-message-post.ts']);
  });
});
