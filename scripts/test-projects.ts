// Which of the suite's projects a caller of `npm test -- --project <name>` asked for: `npm test` runs them as two
// vitest processes (scripts/test.ts), and a `--project` passed to both would run the named files in each.

/** The projects named with `--project` (undefined when none), and the other arguments, in their order. */
export function projectsAsked(args: readonly string[]): { projects: string[] | undefined; rest: string[] } {
  const projects: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--project' && i + 1 < args.length) projects.push(args[++i] as string);
    else if (arg.startsWith('--project=')) projects.push(arg.slice('--project='.length));
    else rest.push(arg);
  }
  return { projects: projects.length > 0 ? projects : undefined, rest };
}

/** Of a vitest run's own projects, those the caller asked for (all of them when the caller named none). */
export function ownAsked(own: readonly string[], asked: readonly string[] | undefined): string[] {
  return asked === undefined ? [...own] : own.filter((project) => asked.includes(project));
}
