// The static import graph of the repository's own TypeScript, for the structure tests.
// Type-only imports count: a cycle through types still ties two modules together (they can only be understood,
// moved or split as one), and cycles come mostly from types living in implementation files.
// Dynamic `import()` does not count: it is a deliberate, lazy edge taken at run time.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Every .ts file under the given folders (relative to the repository root), node_modules excluded. */
export function sourceFiles(folders: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) files.push(relative(ROOT, path));
    }
  };
  for (const folder of folders) if (existsSync(join(ROOT, folder))) walk(join(ROOT, folder));
  return files.sort();
}

/**
 * `read`'s answer for `file`, parsed once for each text the file has had in this process: the structure and image
 * tests ask for the same files' imports again and again (the image's start closure alone parsed ~1,000 files a
 * check), and TypeScript's parser was most of their CPU. A file written anew (a test's broken copy) is parsed anew.
 */
function onceForText(read: (file: string, text: string) => string[]): (file: string) => string[] {
  const answers = new Map<string, { text: string; specifiers: string[] }>();
  return (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const known = answers.get(file);
    if (known?.text === text) return [...known.specifiers];
    const specifiers = read(file, text);
    answers.set(file, { text, specifiers });
    return [...specifiers];
  };
}

/** The module specifiers a file imports, re-exports or augments statically (`import type` included). */
export const staticImports = onceForText((file, text) => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      specifiers.push(statement.moduleSpecifier.text);
    }
    // `declare module './x.ts' { ... }` adds to that module (declaration merging: OrderEffects' fields, a feature's
    // strings and store areas): it ties the two together as an import does.
    if (ts.isModuleDeclaration(statement) && ts.isStringLiteral(statement.name)) specifiers.push(statement.name.text);
  }
  return specifiers;
});

/** The module specifiers a file loads when Node runs it: its imports and re-exports but those erased with their types
 * (`import type`, `export type`; an `import { type A }` still loads its module). A dynamic `import()` is not followed. */
export const runtimeImports = onceForText((file, text) => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    const erased = ts.isImportDeclaration(statement)
      ? statement.importClause?.isTypeOnly === true
      : ts.isExportDeclaration(statement) && statement.isTypeOnly;
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      !erased &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers;
});

/** The workspace packages (packages/*), by the name they are imported by. */
export const LOCAL_PACKAGES: Readonly<Record<string, string>> = {
  '@saybot/local-discord': 'packages/local-discord/src',
  '@saybot/voice-sandbox': 'packages/voice-sandbox/src',
  '@saybot/engine-doubles': 'packages/engine-doubles/src',
  '@saybot/playground': 'packages/playground/src',
};

/** The repository file a specifier names, or undefined for a library. */
export function resolveImport(from: string, specifier: string): string | undefined {
  for (const [name, folder] of Object.entries(LOCAL_PACKAGES)) {
    if (specifier === name) return `${folder}/index.ts`;
    if (specifier.startsWith(`${name}/`)) return `${folder}/${specifier.slice(name.length + 1)}`;
  }
  if (!specifier.startsWith('.')) return undefined;
  return relative(ROOT, resolve(ROOT, dirname(from), specifier));
}

/** file -> the repository files it imports. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = staticImports(file)
      .map((specifier) => resolveImport(file, specifier))
      .filter((target): target is string => target !== undefined && known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The graph of the rooms directly under `prefix` (a folder, or a file lying there), drawn from a graph of files: an
 * arrow from one room to another when some file of the first imports some file of the second.
 */
export function folderGraph(files: ReadonlyMap<string, readonly string[]>, prefix: string): Map<string, string[]> {
  const roomOf = (file: string) => file.slice(prefix.length).split('/')[0]!;
  const rooms = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    if (!file.startsWith(prefix)) continue;
    const from = roomOf(file);
    const arrows = rooms.get(from) ?? rooms.set(from, new Set()).get(from)!;
    for (const target of targets) if (target.startsWith(prefix) && roomOf(target) !== from) arrows.add(roomOf(target));
  }
  return new Map([...rooms].map(([room, arrows]) => [room, [...arrows].sort()]));
}

/** The import cycles: each strongly connected component of more than one file (or a file importing itself). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative so a deep chain cannot overflow the stack.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const target = edges[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

/** What an entry point loads as it starts: the repository's files and the libraries (by package name) its static
 * run-time imports reach. */
export function loadedBy(entry: string): { files: string[]; libraries: string[] } {
  const files = new Set<string>();
  const libraries = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of runtimeImports(file)) {
      const target = resolveImport(file, specifier);
      if (target !== undefined) pending.push(target);
      else if (!specifier.startsWith('node:'))
        libraries.add(
          specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
  }
  return { files: [...files].sort(), libraries: [...libraries].sort() };
}
