// Where a repository file ends up in the image, read as Docker reads the files (test/deploy/image-files.ts): left
// out of the build context by .dockerignore, copied by a stage's COPY lines (and to which path), or not at all.
import { posix } from 'node:path';
import type { Stage } from './image-files.ts';

/** A .dockerignore pattern as a regular expression over context paths (Go's filepath.Match, plus `**`). */
function patternRegex(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      const slash = pattern[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/**
 * Whether .dockerignore leaves `file` (a path from the repository's root) out of the build context: the last pattern
 * that matches it or a folder above it decides, `!` patterns putting back what an earlier one left out.
 */
export function dockerignoreMatcher(dockerignore: string): (file: string) => boolean {
  const rules = dockerignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      return {
        negated,
        regex: patternRegex(posix.normalize(negated ? line.slice(1) : line).replace(/^\/+|\/+$/g, '')),
      };
    });
  return (file) => {
    const parts = file.split('/');
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let ignored = false;
    for (const rule of rules) if (prefixes.some((p) => rule.regex.test(p))) ignored = !rule.negated;
    return ignored;
  };
}

/** The absolute path a COPY line of `stage` (from the build context, not another stage) puts `file` at, if any. */
export function copiedTo(stage: Stage, file: string): string | undefined {
  let workdir = '/';
  let at: string | undefined;
  for (const instruction of stage.instructions) {
    if (instruction.keyword === 'WORKDIR') workdir = posix.resolve(workdir, instruction.args.trim());
    if (instruction.keyword !== 'COPY' || /--from=/.test(instruction.args)) continue;
    const words = instruction.args.split(/\s+/).filter((w) => w !== '' && !w.startsWith('--'));
    const destination = words.at(-1) ?? '.';
    const sources = words.slice(0, -1).map((s) => s.replace(/^\.\/|\/$/g, ''));
    const target = posix.resolve(workdir, destination);
    const intoFolder = sources.length > 1 || destination.endsWith('/');
    for (const source of sources) {
      // A folder's contents go into the destination; a file goes there, or into it when it is a folder.
      if (source === '.' || source === '') at = posix.join(target, file);
      else if (file.startsWith(`${source}/`)) at = posix.join(target, file.slice(source.length + 1));
      else if (file === source) at = intoFolder ? posix.join(target, posix.basename(file)) : target;
    }
  }
  return at;
}

/** The final stage's working directory: where npm runs the image's scripts and where relative paths start. */
export function workdirOf(stage: Stage): string {
  return stage.instructions
    .filter((i) => i.keyword === 'WORKDIR')
    .reduce((dir, i) => posix.resolve(dir, i.args.trim()), '/');
}

export interface Missing {
  kind: 'ignored' | 'not-copied' | 'elsewhere';
  /** One line naming the file (and where it went instead). */
  text: string;
}

/**
 * Why `stage` does not hold `file` where the repository has it (relative imports and npm's workspace links count on
 * that layout), or undefined when it does.
 */
export function missingFromStage(stage: Stage, dockerignore: string, file: string): Missing | undefined {
  if (dockerignoreMatcher(dockerignore)(file)) return { kind: 'ignored', text: `.dockerignore leaves out ${file}` };
  const name = stage.name ?? '(final)';
  const at = copiedTo(stage, file);
  const expected = posix.join(workdirOf(stage), file);
  if (at === undefined) return { kind: 'not-copied', text: `Dockerfile: stage ${name} does not copy ${file}` };
  if (at === expected) return undefined;
  return { kind: 'elsewhere', text: `Dockerfile: stage ${name} copies ${file} to ${at}, not ${expected}` };
}

/** The variables ENV sets in a stage, in order (`ENV KEY=value …` and the older `ENV KEY value`). */
export function stageEnv(stage: Stage): Map<string, string> {
  const env = new Map<string, string>();
  for (const { keyword, args } of stage.instructions) {
    if (keyword !== 'ENV') continue;
    if (!/^[\w.-]+=/.test(args)) {
      const [key, ...value] = args.split(/\s+/);
      if (key) env.set(key, value.join(' '));
      continue;
    }
    for (const match of args.matchAll(/([\w.-]+)=("(?:[^"\\]|\\.)*"|\S*)/g))
      env.set(match[1]!, match[2]!.replace(/^"|"$/g, ''));
  }
  return env;
}
