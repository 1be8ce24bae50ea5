// `npm test -- --project <name>`: each of its two vitest runs keeps only the projects of its own that were named.
import { describe, expect, it } from 'vitest';
import { ownAsked, projectsAsked } from '../../scripts/test-projects.ts';

describe("npm test's --project", () => {
  it('takes the named projects out of the arguments, in both spellings, and keeps the rest in order', () => {
    expect(projectsAsked(['--project', 'wall', 'test/e2e/say.test.ts', '--project=unit', '-t', 'x'])).toEqual({
      projects: ['wall', 'unit'],
      rest: ['test/e2e/say.test.ts', '-t', 'x'],
    });
    expect(projectsAsked(['test/e2e/say.test.ts'])).toEqual({ projects: undefined, rest: ['test/e2e/say.test.ts'] });
  });

  it('gives each run the named projects it owns, none to a run that owns none of them, all when none was named', () => {
    expect(ownAsked(['wall'], ['wall'])).toEqual(['wall']);
    expect(ownAsked(['unit', 'own-graph'], ['wall'])).toEqual([]);
    expect(ownAsked(['unit', 'own-graph'], ['own-graph'])).toEqual(['own-graph']);
    expect(ownAsked(['unit', 'own-graph'], undefined)).toEqual(['unit', 'own-graph']);
  });
});
