// What the Docker image must get right, checked from its files where no Docker engine is (test/deploy/image.test.ts):
// its command receives the signals Docker sends, its final stage holds what the start needs, it ships no Opus
// build leftovers and builds Opus against the base image's Node headers, it has a HEALTHCHECK with /healthz served,
// and compose's DATABASE_URL parses with the password compose tells owners to generate (the demo's part:
// test/deploy/image-demo-checks.ts). Each check takes the files' text, so the tests can also show it failing on a
// broken copy.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { postgresUrlProblem } from '../../src/core/postgres-url.ts';
import { resolveImport, staticImports } from '../structure/import-graph.ts';
import { stageEnv } from './image-context.ts';
import { execForm, imageCommand, ROOT, type Stage } from './image-files.ts';

export interface PackageJson {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
}

/** The npm script a command runs (`npm start`, `npm run x`), or undefined when it runs no npm script. */
function npmScript(argv: readonly string[]): string | undefined {
  if (argv[0] !== 'npm') return undefined;
  if (argv[1] === 'start') return 'start';
  return argv[1] === 'run' || argv[1] === 'run-script' ? argv[2] : undefined;
}

/** npm scripts that run until stopped, besides the image's command: run in a container as its main process. */
const LONG_RUNNING_SCRIPTS = ['playground', 'sandbox'];

/**
 * Docker signals the container's main process only. A shell form runs under `/bin/sh -c`, which does not pass
 * SIGTERM on; npm runs a script under `sh -c` too, so the script's last command must `exec` node.
 */
export function signalProblems(stages: Stage[], pkg: PackageJson, compose: string): string[] {
  const problems: string[] = [];
  for (const keyword of ['CMD', 'ENTRYPOINT']) {
    const instruction = stages
      .at(-1)
      ?.instructions.filter((i) => i.keyword === keyword)
      .at(-1);
    if (instruction && execForm(instruction.args) === undefined) {
      problems.push(
        `Dockerfile: ${keyword} is in shell form: Docker runs it under /bin/sh -c, which does not pass SIGTERM to SayBot; write it as a JSON array`,
      );
    }
  }
  const command = imageCommand(stages);
  if (command[0] === '/bin/sh' || command[0] === 'sh') return problems;
  // The image's own command, and the long-running scripts owners are told to run in it instead (`docker run ... npm
  // run playground`, the Dockerfile's comment): each must get the signal, or Ctrl-C and `docker stop` never reach it.
  const scripts = new Set([npmScript(command), ...LONG_RUNNING_SCRIPTS]);
  for (const script of scripts) {
    if (script === undefined) continue;
    const text = pkg.scripts[script];
    const last =
      text
        ?.split(/&&|\|\||;/)
        .at(-1)
        ?.trim() ?? '';
    if (!/^exec node\b/.test(last)) {
      problems.push(
        `package.json: the "${script}" script the image runs does not exec node (${JSON.stringify(text)}): npm runs it under sh -c, and the signal npm passes on ends sh, not SayBot`,
      );
    }
  }
  const service = composeService(compose, 'saybot');
  for (const key of ['command', 'entrypoint']) {
    const value = new RegExp(`^\\s+${key}:\\s*(.+)$`, 'm').exec(service)?.[1];
    if (value !== undefined && !value.trim().startsWith('['))
      problems.push(
        `docker-compose.yml: the saybot service's ${key} is a string, run under a shell; write it as a list`,
      );
  }
  return problems;
}

/** A compose service's block (its lines, indented under it), found without a YAML parser. */
export function composeService(compose: string, name: string): string {
  const lines = compose.split('\n');
  const start = lines.findIndex((l) => new RegExp(`^  ${name}:\\s*$`).test(l));
  if (start === -1) return '';
  const end = lines.findIndex((l, i) => i > start && /^ {0,2}\S/.test(l));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/**
 * What the start reads: the files the image's command runs, everything they import (statically or by a literal
 * `import()`), and every `new URL('…', import.meta.url)` they open (worker files, the features' folder, package.json).
 * Returns the repository paths and the libraries imported, each with the files that import it.
 */
export function startClosure(entries: readonly string[]): { files: Set<string>; importers: Map<string, string[]> } {
  const files = new Set<string>();
  const importers = new Map<string, string[]>();
  const todo = [...entries];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const absolute = join(ROOT, file);
    if (!existsSync(absolute) || !/\.(ts|mjs|js)$/.test(file)) {
      // A folder read at run time: its modules are loaded (src/features/, whose commands/ folders are loaded module
      // by module), its other files read as they are (the dashboard's web/, served; never followed as modules).
      if (existsSync(absolute) && !/\.\w+$/.test(file)) {
        for (const entry of readdirSync(absolute, { withFileTypes: true }))
          if (entry.isDirectory() || (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')))
            todo.push(`${file}/${entry.name}`);
          else files.add(`${file}/${entry.name}`);
      }
      continue;
    }
    const text = readFileSync(absolute, 'utf8');
    const dynamic = [...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!);
    for (const specifier of [...staticImports(file), ...dynamic]) {
      const target = resolveImport(file, specifier);
      if (target !== undefined) todo.push(target);
      else if (!specifier.startsWith('node:')) {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        const from = importers.get(name) ?? [];
        if (!from.includes(file)) importers.set(name, [...from, file]);
      }
    }
    for (const match of text.matchAll(/new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g)) {
      todo.push(relative(ROOT, resolve(ROOT, dirname(file), match[1]!)).replace(/\/$/, ''));
    }
  }
  return { files, importers };
}

/** The repository files the image's command starts with: the node scripts of its npm script, or its own. */
export function startEntries(command: readonly string[], pkg: PackageJson): string[] {
  const script = npmScript(command);
  const words = script === undefined ? command.join(' ') : (pkg.scripts[script] ?? '');
  return [...words.matchAll(/(?:^|\s)((?:src|scripts|demo)\/\S+\.(?:ts|mjs|js))/g)].map((m) => m[1]!);
}

/** The final stage holds every runtime dependency and every repository file the start reads. */
export function copyProblems(stages: Stage[], pkg: PackageJson, dockerignore: string): string[] {
  const problems: string[] = [];
  const final = stages.at(-1)?.instructions ?? [];
  const copies = final.filter((i) => i.keyword === 'COPY');
  const fromStage = copies.find((i) => /--from=\S+/.test(i.args) && /node_modules/.test(i.args));
  const builder = stages.find(
    (s) => s.name !== undefined && s.name === /--from=(\S+)/.exec(fromStage?.args ?? '')?.[1],
  );
  if (fromStage === undefined || builder === undefined)
    problems.push('Dockerfile: the final stage does not copy node_modules from a build stage');
  else if (
    !builder.instructions.some((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args) && /--omit=dev/.test(i.args))
  ) {
    problems.push(`Dockerfile: stage ${builder.name} does not install the dependencies with npm ci --omit=dev`);
  }
  const { files, importers } = startClosure(startEntries(imageCommand(stages), pkg));
  for (const [library, [importer]] of importers) {
    if (!(library in pkg.dependencies))
      problems.push(
        `${importer} imports ${library}, which is not in package.json's dependencies: npm ci --omit=dev leaves it out of the image`,
      );
  }
  const sources = copies
    .filter((i) => !/--from=/.test(i.args))
    .flatMap((i) =>
      i.args
        .split(/\s+/)
        .filter((w) => !w.startsWith('--'))
        .slice(0, -1),
    );
  const ignored = dockerignore
    .split('\n')
    .map((l) => l.trim().replace(/^\/|\/$/g, ''))
    .filter((l) => l !== '' && !l.startsWith('#'));
  // A folder a file belongs to: its top folder, or for a workspace package packages/<name>, which may be copied alone.
  const unit = (f: string) =>
    f
      .split('/')
      .slice(0, f.startsWith('packages/') ? 2 : 1)
      .join('/');
  const tops = [...new Set([...files].map(unit))].sort();
  for (const top of tops) {
    const copied = sources.some((s) => s === '.' || [top, top.split('/')[0]].includes(s.replace(/\/$/, '')));
    if (!copied)
      problems.push(
        `Dockerfile: the final stage does not copy ${top}, which the start reads (${[...files].find((f) => unit(f) === top)})`,
      );
    if (ignored.includes(top) || ignored.includes(top.split('/')[0]!))
      problems.push(`.dockerignore leaves out ${top}, which the start reads`);
  }
  return problems;
}

/** The Opus addon is built from source in the build stage; its sources and objects must not reach the image. */
export function leftoverProblems(stages: Stage[]): string[] {
  const runs = stages.slice(0, -1).flatMap((s) => s.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args));
  return ['deps', 'build-tmp-napi-v3']
    .filter((dir) => !runs.some((run) => /\brm\b/.test(run) && run.includes(`node_modules/@discordjs/opus/${dir}`)))
    .map(
      (dir) =>
        `Dockerfile: the build stage does not remove node_modules/@discordjs/opus/${dir}, which the final image then ships`,
    );
}

/** Compose's DATABASE_URL with the password compose tells owners to generate: SayBot and the driver must read it. */
export function composePasswordProblems(compose: string): string[] {
  const generator = /openssl rand -hex (\d+)/.exec(compose);
  if (!generator) {
    return [
      'docker-compose.yml does not say how to make POSTGRES_PASSWORD so that it needs no URL encoding (e.g. openssl rand -hex 24); one from openssl rand -base64 breaks DATABASE_URL',
    ];
  }
  const template = /^\s+DATABASE_URL:\s*(\S+)\s*$/m.exec(composeService(compose, 'saybot'))?.[1];
  if (template === undefined) return ['docker-compose.yml: the saybot service sets no DATABASE_URL'];
  const password = randomBytes(Number(generator[1])).toString('hex');
  const url = template.replace(/\$\{POSTGRES_PASSWORD[^}]*\}/g, password);
  const problem = postgresUrlProblem(url);
  if (problem !== undefined) return [`docker-compose.yml: DATABASE_URL with a generated password ${problem}`];
  return new URL(url).password === password
    ? []
    : ['docker-compose.yml: DATABASE_URL does not carry POSTGRES_PASSWORD as its password'];
}

/** The official node images keep Node's headers in /usr/local/include/node: node-gyp's nodedir is /usr/local. */
export const BASE_IMAGE_NODEDIR = '/usr/local';

/**
 * The stage that runs npm ci builds the Opus addon from source when no prebuilt binary can be fetched; node-gyp then
 * needs Node's headers, which it downloads from nodejs.org unless npm_config_nodedir names the base image's own.
 */
export function nodeHeadersProblems(stages: Stage[]): string[] {
  const installer = stages.find((s) => s.instructions.some((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args)));
  if (installer === undefined) return ['Dockerfile: no stage runs npm ci'];
  const name = installer.name ?? '(unnamed)';
  const from = installer.instructions[0]?.args ?? '';
  if (!/^(?:docker\.io\/(?:library\/)?)?node:\S*\b/.test(from))
    return [`Dockerfile: stage ${name} is not built on an official node image (${from}): where are Node's headers?`];
  const install = installer.instructions.findIndex((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args));
  const env = stageEnv({ ...installer, instructions: installer.instructions.slice(0, install) });
  const inline = /\bnpm_config_nodedir=(\S+)/.exec(installer.instructions[install]!.args)?.[1];
  const nodedir = inline ?? env.get('npm_config_nodedir');
  return nodedir === BASE_IMAGE_NODEDIR
    ? []
    : [
        `Dockerfile: stage ${name} runs npm ci with npm_config_nodedir ${nodedir === undefined ? 'unset' : `= ${nodedir}`}: a source build of the Opus addon downloads Node's headers instead of using the image's (${BASE_IMAGE_NODEDIR}/include/node)`,
      ];
}

/** The final stage's HEALTHCHECK command as exec-form words, or undefined when there is none or it is a shell form. */
export function healthcheckCommand(stages: Stage[]): string[] | undefined {
  const instruction = stages
    .at(-1)
    ?.instructions.filter((i) => i.keyword === 'HEALTHCHECK')
    .at(-1);
  const command = /^(?:--\S+\s+)*CMD\s+(.+)$/.exec(instruction?.args ?? '')?.[1];
  return command === undefined ? undefined : execForm(command);
}

/** SayBot's own container says whether it is healthy: a HEALTHCHECK in exec form, and /healthz served by default. */
export function healthcheckProblems(stages: Stage[]): string[] {
  const problems: string[] = [];
  const final = stages.at(-1);
  const instruction = final?.instructions.filter((i) => i.keyword === 'HEALTHCHECK').at(-1);
  if (instruction === undefined || /^NONE\b/i.test(instruction.args))
    problems.push('Dockerfile: the final stage has no HEALTHCHECK');
  else if (healthcheckCommand(stages) === undefined)
    problems.push(
      'Dockerfile: the HEALTHCHECK is not an exec-form CMD (the slim image has a shell, but no curl to give it)',
    );
  const port = final === undefined ? undefined : stageEnv(final).get('METRICS_PORT');
  if (port === undefined || !/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65_535)
    problems.push(
      `Dockerfile: the final stage sets no METRICS_PORT (${port ?? 'unset'}): /healthz is served only with one`,
    );
  return problems;
}
