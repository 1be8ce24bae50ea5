// docs/guide-developers.md's table of the dashboard's pages (route -> the module that registers it -> the page module
// -> the strings modules that page imports) is kept true against the code: each route is registered by the module
// named, which imports the page module and calls the page functions named; the page module imports exactly the
// strings modules named; and every page function of pages/ is in the table.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, resolveImport, staticImports } from './import-graph.ts';

const DASHBOARD = 'src/features/dashboard';
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

interface Row {
  routes: string[];
  registeredBy: string;
  page: string;
  functions: string[];
  strings: string[];
}

/** The rows of the table under the guide's "The dashboard's pages" heading, each cell's `code` spans. */
function tableRows(markdown: string): Row[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith("The dashboard's pages\n")) ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
      const [routes = [], [registeredBy = ''] = [], [page = '', ...functions] = [], strings = []] = cells;
      return { routes, registeredBy, page, functions, strings };
    });
}

/**
 * The routes a module registers, as `METHOD /path`: app.get/app.post with a quoted path, `base` (the module's
 * `const base = '...'`) or a template on it.
 */
function routesOf(text: string): string[] {
  const base = /const base = '([^']*)'/.exec(text)?.[1] ?? '';
  return [...text.matchAll(/app\.(get|post)\(\s*(?:'([^']*)'|`([^`]*)`|(base)\b)/g)].map(
    ([, method, quoted, template, named]) =>
      `${method!.toUpperCase()} ${quoted ?? (template ?? named!).replace(/\$\{base\}|^base$/, base)}`,
  );
}

/** The strings modules (`*strings.ts` of the dashboard) a module imports, by file name. */
function stringsImportedBy(file: string): string[] {
  return staticImports(file)
    .map((specifier) => resolveImport(file, specifier))
    .filter(
      (target): target is string =>
        target !== undefined && /^src\/features\/dashboard\/[\w-]*strings\.ts$/.test(target),
    )
    .map((target) => basename(target))
    .sort();
}

describe("the guide's table of the dashboard's pages", () => {
  const rows = tableRows(read('docs/guide-developers.md'));

  it('names routes that the module named registers, with the page it names', () => {
    expect(rows.length).toBeGreaterThan(10);
    const wrong: string[] = [];
    for (const row of rows) {
      const module = `${DASHBOARD}/${row.registeredBy}`;
      const text = read(module);
      const registered = routesOf(text);
      for (const route of row.routes) if (!registered.includes(route)) wrong.push(`${module} registers no ${route}`);
      const imports = staticImports(module).map((specifier) => resolveImport(module, specifier));
      if (!imports.includes(`${DASHBOARD}/${row.page}`)) wrong.push(`${module} imports no ${row.page}`);
      for (const name of row.functions)
        if (!new RegExp(`\\b${name}\\(`).test(text)) wrong.push(`${module} calls no ${name}`);
    }
    expect(wrong).toEqual([]);
  });

  it('names exactly the strings modules each page module imports', () => {
    const wrong = rows
      .filter((row) => stringsImportedBy(`${DASHBOARD}/${row.page}`).join() !== [...row.strings].sort().join())
      .map((row) => `${row.page}: ${stringsImportedBy(`${DASHBOARD}/${row.page}`).join(', ')}`);
    expect(wrong).toEqual([]);
  });

  it('has every page function of pages/', () => {
    const named = new Set(rows.flatMap((row) => row.functions.map((name) => `${row.page} ${name}`)));
    const pages = readdirSync(join(ROOT, DASHBOARD, 'pages')).flatMap((name) =>
      [...read(`${DASHBOARD}/pages/${name}`).matchAll(/^export function (\w+Page)\b/gm)].map(
        (match) => `pages/${name} ${match[1]!}`,
      ),
    );
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.filter((page) => !named.has(page))).toEqual([]);
  });

  it('reads routes the way the modules write them', () => {
    const sample = [
      "  const base = '/servers/:guildId/month';",
      "  app.get('/', (c) => c.html(''));",
      '  app.get(base, (c) => show(c));',
      '  app.post(`${base}/budgets`, managersOnly, async (c) => {',
      "  app.use('/owner', guard);",
    ].join('\n');
    expect(routesOf(sample)).toEqual(['GET /', 'GET /servers/:guildId/month', 'POST /servers/:guildId/month/budgets']);
  });
});
