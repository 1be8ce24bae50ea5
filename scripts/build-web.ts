// `npm run build:web`: bundles the dashboard's browser modules that use libraries (the Scenes page's editor,
// CodeMirror 6) into one minified file each, committed beside its source, so a production-only install (the Docker
// image) serves it with no build step and no CDN. esbuild and the libraries are dev dependencies; the bundle starts
// with the licence notice of every package in it (MIT asks that it goes with each copy).
// test/features/dashboard/web-bundle.test.ts builds it again in memory and checks the committed file is the same.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Each bundle: its source module and the committed file made of it. */
export const WEB_BUNDLES = [
  { source: 'src/features/dashboard/web/scenes.js', output: 'src/features/dashboard/web/scenes.bundle.js' },
] as const;

/** style-mod as CodeMirror imports it replaced by the dashboard's (web/style-mod-csp.js), which alone imports it. */
const STYLES_UNDER_CSP = join(ROOT, 'src/features/dashboard/web/style-mod-csp.js');
const stylesUnderCsp: Plugin = {
  name: 'style-mod-csp',
  setup(build) {
    build.onResolve({ filter: /^style-mod$/ }, (args) =>
      args.importer === STYLES_UNDER_CSP ? undefined : { path: STYLES_UNDER_CSP },
    );
  },
};

/** The package a bundled file comes from (`node_modules/@scope/name/...` → `@scope/name`), if any. */
function packageOf(input: string): string | undefined {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match?.[1];
}

/** `name version licence, its copyright line` for each package, from its package.json and LICENSE file. */
function notices(packages: string[]): string[] {
  return packages.map((name) => {
    const folder = join(ROOT, 'node_modules', name);
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      version: string;
      license: string;
    };
    let copyright = '';
    try {
      copyright = /^.*copyright.*$/im.exec(readFileSync(join(folder, 'LICENSE'), 'utf8'))?.[0].trim() ?? '';
    } catch {
      // No LICENSE file: the licence's name stands alone.
    }
    return `${name} ${manifest.version} (${manifest.license})${copyright === '' ? '' : `: ${copyright}`}`;
  });
}

/** A bundle's text as `npm run build:web` writes it. */
export async function bundleText(source: string): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [source],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['chrome111', 'firefox111', 'safari16.4'],
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'silent',
    plugins: [stylesUnderCsp],
  });
  const inputs = Object.keys(result.metafile.inputs);
  const packages = [...new Set(inputs.flatMap((input) => packageOf(input) ?? []))].sort();
  const banner = [
    `/* Built by npm run build:web from ${relative(ROOT, join(ROOT, source))}; do not edit. Includes:`,
    ...notices(packages).map((line) => ` * ${line.replaceAll('*/', '* /')}`),
    ' * Each under the MIT licence: https://opensource.org/license/mit */',
  ].join('\n');
  const [file] = result.outputFiles;
  if (file === undefined) throw new Error(`esbuild made nothing of ${source}`);
  return `${banner}\n${file.text}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { source, output } of WEB_BUNDLES) {
    const text = await bundleText(source);
    writeFileSync(join(ROOT, output), text);
    console.log(`${output}: ${Buffer.byteLength(text)} bytes`);
  }
}
