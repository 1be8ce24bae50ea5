// axe-core (read from node_modules, injected into the page through the browser's debugging protocol, as the pages'
// CSP allows no inline script): a page's serious and critical violations, and how far it scrolls sideways.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: string[] }>;
}

/** axe-core's serious and critical violations on the page as it stands, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate<boolean>("'axe' in window"))) await page.evaluate(AXE);
  // Only the violations are wanted: the other result types are kept to one node each (axe's resultTypes), which finds
  // the same violations in less time.
  const violations = await page.evaluate<Violation[]>(
    "axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)",
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** How far the page scrolls sideways (0: not at all). */
export const sideways = (page: Page) =>
  page.evaluate<number>('document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth');
