// The dashboard's committed bundles (src/features/dashboard/web/*.bundle.js, served as they are by a production-only
// install) are what `npm run build:web` makes of their sources and the installed libraries today: a change to either
// without building again fails here. Each bundle names the libraries in it with their licences (MIT's one condition).
// That the editor runs under the Content Security Policy is checked in a real browser (scenes-browser.test.ts).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { WEB_BUNDLES, bundleText } from '../../../scripts/build-web.ts';

describe("the dashboard's bundles", () => {
  it.each(WEB_BUNDLES)(
    '$output is current with $source (npm run build:web)',
    async ({ source, output }) => {
      const committed = await readFile(new URL(`../../../${output}`, import.meta.url), 'utf8');
      const built = await bundleText(source);
      // Compared by size and a short verdict first, so a stale bundle fails with one line, not 290 KB of diff.
      expect({ bytes: Buffer.byteLength(committed), same: committed === built }).toEqual({
        bytes: Buffer.byteLength(built),
        same: true,
      });
    },
    60_000,
  );

  it('names every library in the Scenes editor with its licence', async () => {
    const text = await bundleText(WEB_BUNDLES[0].source);
    const banner = text.slice(0, text.indexOf('*/'));
    for (const name of ['@codemirror/state', '@codemirror/view', '@codemirror/commands', 'style-mod'])
      expect(banner).toMatch(new RegExp(`\\* ${name} \\d+\\.\\d+\\.\\d+ \\(MIT\\)`));
  }, 60_000);
});
