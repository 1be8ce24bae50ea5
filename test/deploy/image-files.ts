// The Docker image's files read as Docker reads them, for the tests that check the image where no Docker engine
// is: the Dockerfile's stages and instructions, the final stage's command, the compose file's SayBot service.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Instruction {
  keyword: string;
  /** The rest of the instruction, continuation lines joined. */
  args: string;
}

export interface Stage {
  name: string | undefined;
  instructions: Instruction[];
}

export function readRepoFile(file: string): string {
  return readFileSync(new URL(file, `file://${ROOT}`), 'utf8');
}

/** The Dockerfile's stages in order, each with its instructions (comments dropped, `\` continuations joined). */
export function dockerfileStages(text = readRepoFile('Dockerfile')): Stage[] {
  const logical: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    const continued = /\\\s*$/.test(line);
    pending += `${continued ? line.replace(/\\\s*$/, '') : line} `;
    if (!continued) {
      if (pending.trim() !== '') logical.push(pending.trim());
      pending = '';
    }
  }
  const stages: Stage[] = [];
  for (const entry of logical) {
    const match = /^(\S+)\s*(.*)$/.exec(entry);
    const keyword = (match?.[1] ?? '').toUpperCase();
    const args = match?.[2] ?? '';
    if (keyword === 'FROM') stages.push({ name: /\bAS\s+(\S+)/i.exec(args)?.[1], instructions: [] });
    stages.at(-1)?.instructions.push({ keyword, args });
  }
  return stages;
}

/** An instruction's words: its JSON array in exec form, or undefined in shell form (Docker runs `/bin/sh -c`). */
export function execForm(args: string): string[] | undefined {
  let words: unknown;
  try {
    words = JSON.parse(args);
  } catch {
    return undefined; // not valid JSON (e.g. `[npm, start]`): Docker runs it as a shell form too
  }
  return Array.isArray(words) && words.every((w) => typeof w === 'string') ? words : undefined;
}

/** What the final stage runs, as Docker builds it: ENTRYPOINT then CMD, a shell form as `/bin/sh -c …`. */
export function imageCommand(stages = dockerfileStages()): [string, ...string[]] {
  const last = (keyword: string) =>
    stages
      .at(-1)
      ?.instructions.filter((i) => i.keyword === keyword)
      .at(-1);
  const asWords = (i: Instruction | undefined): string[] =>
    i === undefined ? [] : (execForm(i.args) ?? ['/bin/sh', '-c', i.args]);
  const words = [...asWords(last('ENTRYPOINT')), ...asWords(last('CMD'))];
  if (words.length === 0) throw new Error("the Dockerfile's final stage has no CMD or ENTRYPOINT");
  return words as [string, ...string[]];
}
