// A page walked by keyboard as a person would: Tab from the top through every control the page shows (links, buttons,
// fields, a <details>' summary, the studio's editor, media with controls), checking that each one gets the focus, in
// the page's order, with a focus style that differs from its look unfocused (outline or box-shadow, its own or its
// editor's), and inside the page (not hidden or pushed off-screen). Evaluated as text through the browser's debugging
// protocol (the pages' CSP allows no inline script; the tests' TypeScript has no DOM types).
import type { Page } from 'playwright-core';

/** What may take the focus: the candidates, then kept if shown, enabled and in the tab order. */
const FOCUSABLE =
  'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable="true"], audio[controls], video[controls]';

const PREPARE = `(() => {
  const ring = (el) => {
    const target = el.closest('.cm-editor') ?? el;
    const style = getComputedStyle(target);
    return style.outlineStyle === 'none' || style.outlineWidth === '0px'
      ? 'none|' + style.boxShadow
      : style.outlineStyle + ' ' + style.outlineWidth + ' ' + style.outlineColor + '|' + style.boxShadow;
  };
  // The walk starts at the top whatever was focused before: the body focused (as after a page's load).
  document.body.tabIndex = -1;
  document.body.focus();
  document.body.removeAttribute('tabindex');
  for (const el of document.querySelectorAll('[data-kb]')) delete el.dataset.kb;
  const controls = [...document.querySelectorAll(${JSON.stringify(FOCUSABLE)})].filter(
    (el) =>
      !el.disabled &&
      (el.tabIndex >= 0 || el.isContentEditable) &&
      !(el.tagName === 'INPUT' && el.type === 'hidden') &&
      !el.closest('[inert]') &&
      el.checkVisibility({ visibilityProperty: true }),
  );
  const describe = (el) =>
    el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' + (el.getAttribute('aria-label') ?? el.textContent ?? el.name ?? '').trim().replace(/\\s+/g, ' ').slice(0, 40) + '"';
  const unfocused = controls.map(ring);
  controls.forEach((el, i) => { el.dataset.kb = String(i); });
  const seen = [];
  document.addEventListener('focusin', (event) => {
    const el = event.target;
    const index = el.dataset?.kb === undefined ? -1 : Number(el.dataset.kb);
    const rect = el.getBoundingClientRect();
    const page = document.scrollingElement;
    const onPage =
      rect.width >= 4 && rect.height >= 4 &&
      rect.left + scrollX >= -1 && rect.right + scrollX <= page.scrollWidth + 1 && rect.top + scrollY >= -1 &&
      el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    seen.push({ index, name: describe(el), ring: index >= 0 && ring(el) !== unfocused[index], onPage });
  }, true);
  window.__keyboard = { seen, names: controls.map(describe) };
  return controls.length;
})()`;

/**
 * Walks the page from its top with Tab; the problems found, one line each (none: every control reached in order,
 * each with a visible focus ring, on the page).
 */
export async function keyboardProblems(page: Page): Promise<string[]> {
  const count = await page.evaluate<number>(PREPARE);
  // Each Tab is a key press as the keyboard sends it (down, then up), all sent in order through the debugging
  // protocol before the first is answered: the browser handles them one after another, as typed, without a round trip
  // between two presses (a thousand of those made most of a walk's time on a busy machine).
  const cdp = await page.context().newCDPSession(page);
  try {
    const tab = { key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, nativeVirtualKeyCode: 9 };
    const sent: Array<Promise<unknown>> = [];
    for (let i = 0; i < count; i += 1) {
      sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...tab }));
      sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...tab }));
    }
    await Promise.all(sent);
  } finally {
    await cdp.detach();
  }
  const { seen, names } = await page.evaluate<{
    seen: Array<{ index: number; name: string; ring: boolean; onPage: boolean }>;
    names: string[];
  }>('window.__keyboard');
  const problems: string[] = [];
  seen.forEach((stop, i) => {
    if (stop.index !== i) problems.push(`stop ${i}: ${stop.name} where ${names[i] ?? 'nothing'} was expected`);
    else if (!stop.ring) problems.push(`no visible focus: ${stop.name}`);
    else if (!stop.onPage) problems.push(`focused off-screen or hidden: ${stop.name}`);
  });
  if (seen.length < count) problems.push(`never reached: ${names.slice(seen.length).join(', ')}`);
  return problems.slice(0, 10);
}
