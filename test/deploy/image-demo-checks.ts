// `npm run demo` in the image (`docker run --rm saybot npm run demo`), checked where no Docker engine is: the final
// stage holds every file the demo reads where the repository has it (the demo, SayBot's sources, the sandbox, the
// local Discord), npm's workspace links point at copied packages, the production install has every library they
// import, and the image's user may write the demo's output folder.
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { startClosure, startEntries, type PackageJson } from './image-checks.ts';
import { missingFromStage, workdirOf } from './image-context.ts';
import { ROOT, type Stage } from './image-files.ts';

export interface PackageLock {
  packages: Record<string, { link?: boolean; resolved?: string }>;
}

/** The folder a demo file belongs to, for one line per folder: `packages/<name>` or the top folder. */
function unitOf(file: string): string {
  const parts = file.split('/');
  return parts[0] === 'packages' ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The dependencies a library import must be in: its workspace package's for a file under packages/, else SayBot's. */
function manifestFor(file: string, pkg: PackageJson): { name: string; dependencies: Record<string, string> } {
  if (!file.startsWith('packages/')) return { name: 'package.json', dependencies: pkg.dependencies };
  const manifest = `${unitOf(file)}/package.json`;
  const read = JSON.parse(readFileSync(join(ROOT, manifest), 'utf8')) as Partial<PackageJson>;
  return { name: manifest, dependencies: read.dependencies ?? {} };
}

/** The folder `npm run demo` writes to by default (demo/run.ts's --out). */
export function demoOutputFolder(): string {
  const runTs = readFileSync(join(ROOT, 'demo/run.ts'), 'utf8');
  const folder = /out:\s*\{[^}]*default:\s*'([^']+)'/.exec(runTs)?.[1];
  if (folder === undefined) throw new Error("demo/run.ts's --out has no default folder");
  return folder;
}

/** What stops `npm run demo` from running in the image as built from `stages` and `dockerignore`. */
export function demoProblems(stages: Stage[], pkg: PackageJson, dockerignore: string): string[] {
  const problems: string[] = [];
  const final = stages.at(-1);
  if (final === undefined) return ['Dockerfile: no stage'];
  if (pkg.scripts['demo'] === undefined) return ['package.json: no "demo" script'];
  const { files, importers } = startClosure(startEntries(['npm', 'run', 'demo'], pkg));
  // One line per folder and kind of problem: the first file it hits.
  const reported = new Set<string>();
  for (const file of [...files].filter((f) => existsSync(join(ROOT, f))).sort()) {
    const missing = missingFromStage(final, dockerignore, file);
    const key = missing && `${unitOf(file)} ${missing.kind}`;
    if (missing && key && !reported.has(key)) {
      reported.add(key);
      problems.push(`${missing.text}, which npm run demo reads`);
    }
  }
  for (const [library, from] of importers) {
    for (const file of from) {
      const manifest = manifestFor(file, pkg);
      if (!(library in manifest.dependencies)) {
        problems.push(
          `${file} imports ${library}, which is not in ${manifest.name}'s dependencies: npm ci --omit=dev may leave it out of the image`,
        );
      }
    }
  }
  const output = posix.join(workdirOf(final), demoOutputFolder());
  const user = final.instructions
    .filter((i) => i.keyword === 'USER')
    .at(-1)
    ?.args.trim();
  if (user !== undefined && user !== 'root' && user !== '0') {
    const made = final.instructions.some(
      (i) => i.keyword === 'RUN' && /\bmkdir\b/.test(i.args) && i.args.includes(output) && /\bchown\b/.test(i.args),
    );
    if (!made)
      problems.push(
        `Dockerfile: the final stage runs as ${user} and does not give it ${output}, where npm run demo writes by default`,
      );
  }
  return problems;
}

/**
 * npm's workspace links (node_modules/@saybot/local-discord -> packages/local-discord): the stage that runs npm ci
 * has each package's manifest, so the link is made, and the final stage holds the package it points at; otherwise the
 * image ships a dangling link.
 */
export function workspaceLinkProblems(stages: Stage[], lock: PackageLock, dockerignore: string): string[] {
  const problems: string[] = [];
  const final = stages.at(-1);
  const installer = stages.find((s) => s.instructions.some((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args)));
  if (final === undefined || installer === undefined) return ['Dockerfile: no stage runs npm ci'];
  const links = Object.entries(lock.packages).filter(([name, entry]) => name.startsWith('node_modules/') && entry.link);
  for (const [name, { resolved }] of links) {
    const link = name.slice('node_modules/'.length);
    if (resolved === undefined || !existsSync(join(ROOT, resolved, 'package.json'))) {
      problems.push(`package-lock.json: ${link} links to ${resolved ?? 'nothing'}, which holds no package.json`);
      continue;
    }
    const manifest = `${resolved}/package.json`;
    const exported = (JSON.parse(readFileSync(join(ROOT, manifest), 'utf8')) as { exports?: Record<string, string> })
      .exports?.['.'];
    const entry = exported === undefined ? undefined : posix.join(resolved, exported);
    const inInstaller = missingFromStage(installer, dockerignore, manifest);
    if (inInstaller) problems.push(`${inInstaller.text}: npm ci makes no link ${link} there`);
    for (const file of [manifest, ...(entry === undefined ? [] : [entry])]) {
      const inFinal = missingFromStage(final, dockerignore, file);
      if (inFinal) problems.push(`${inFinal.text}: the image's link node_modules/${link} dangles`);
    }
  }
  return problems;
}
