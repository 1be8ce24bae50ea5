// The dashboard's scripts and its one stylesheet, served as files (/static/app.js, /static/theme.js,
// /static/style.css): the Content Security Policy allows scripts and styles from this origin only, never inline. Kept
// here as text so that they ship with the code and need no build step.
//
// The stylesheet is a small hand-written design system (docs/architecture.md, "The dashboard's design"): colours,
// spacing and type as custom properties, light and dark by light-dark() (the system's choice, or the theme switch's
// data-theme on <html>), then the frame and the components. No library: the pages are server-made HTML with a strict
// CSP, and a class-based kit would weigh more than all of this and still need Discord's colours written over it.

/**
 * In <head>, before the page paints: the theme chosen with the switch (kept in this browser), so a dark page never
 * flashes light. Without script the system's choice applies.
 */
export const THEME_SCRIPT = `try {
  const theme = localStorage.getItem('saybot-theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
} catch {}
`;

/**
 * Pages work without it. It asks before a form marked data-confirm (remove, import, delete my data) is sent; sends a
 * form marked data-inline in the background and shows its answer beside the button (swapping in the parts of the
 * page marked data-refresh); shows the theme switch and keeps its choice.
 */
export const APP_SCRIPT = `// The dashboard's script (no inline script: the Content Security Policy allows files from this origin alone).
const texts = document.body.dataset;

// The theme switch: as the system, dark, light; kept in this browser (theme.js applies it before the page paints).
const themeSwitch = document.getElementById('theme-switch');
if (themeSwitch) {
  const order = ['auto', 'dark', 'light'];
  const show = (theme) => {
    const label = texts['tTheme' + theme[0].toUpperCase() + theme.slice(1)];
    themeSwitch.querySelector('span').textContent = label;
    themeSwitch.setAttribute('aria-label', label);
    themeSwitch.dataset.theme = theme;
  };
  show(document.documentElement.dataset.theme ?? 'auto');
  themeSwitch.hidden = false;
  themeSwitch.addEventListener('click', () => {
    const next = order[(order.indexOf(themeSwitch.dataset.theme) + 1) % order.length];
    if (next === 'auto') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = next;
    try {
      if (next === 'auto') localStorage.removeItem('saybot-theme');
      else localStorage.setItem('saybot-theme', next);
    } catch {}
    show(next);
  });
}

/** The answer's words beside the button that sent the form: a status, filled a moment after it is in the page. */
function confirmBeside(form, button, text, failed) {
  form.querySelector(':scope .saved')?.remove();
  const note = document.createElement('span');
  note.className = failed ? 'saved error' : 'saved';
  note.setAttribute('role', failed ? 'alert' : 'status');
  (button ?? form.lastElementChild).after(note);
  setTimeout(() => { note.textContent = text; }, 50);
}

/** A switch's value as its form would send it: its own when ticked, else its hidden "off" field's. */
function switchValue(input) {
  if (input.checked) return input.value;
  const off = input.form.querySelector(\`input[type="hidden"][name="\${CSS.escape(input.name)}"]\`);
  return off ? off.value : '';
}

/**
 * Sends the form (or, for a flipped switch, that switch alone: a change saves only what the person changed, never
 * the rest of the page as it stood when it loaded). Saved: each sent field's "as loaded" value (was_<name>) and a
 * switch's saved state move on. Refused or failed: the refusal's words beside it (the answer's notice, else its
 * title: a refusal page's), and the switches sent go back to what is saved.
 */
async function sendInline(form, button, only) {
  const body = only
    ? new URLSearchParams([['_csrf', form.elements.namedItem('_csrf')?.value ?? ''], [only.name, switchValue(only)]])
    : new URLSearchParams(new FormData(form, button));
  const sent = only ? [only] : [...form.querySelectorAll('input[role="switch"]')];
  form.setAttribute('aria-busy', 'true');
  if (button) button.disabled = true;
  let text = texts.tFailed;
  let failed = true;
  try {
    const response = await fetch(form.action, { method: 'POST', body, credentials: 'same-origin' });
    const answer = new DOMParser().parseFromString(await response.text(), 'text/html');
    for (const part of document.querySelectorAll('[data-refresh][id]')) {
      const fresh = answer.getElementById(part.id);
      if (fresh && !part.contains(form)) part.replaceWith(document.importNode(fresh, true));
    }
    document.querySelector('main > .notice')?.remove();
    const notice = answer.querySelector('main > .notice');
    failed = !response.ok || notice?.classList.contains('error') === true;
    const words = (notice ?? (failed ? answer.querySelector('main h1') : null))?.textContent?.trim() ?? '';
    text = words !== '' || !failed ? words : texts.tFailed;
    if (!failed)
      for (const [name, value] of body) {
        const loaded = form.elements.namedItem('was_' + name);
        if (loaded instanceof HTMLInputElement) loaded.value = value;
      }
  } catch {
    failed = true;
  } finally {
    for (const input of sent) {
      if (failed) input.checked = input.defaultChecked;
      else input.defaultChecked = input.checked;
    }
    confirmBeside(form, button, text, failed);
    form.removeAttribute('aria-busy');
    if (button) button.disabled = false;
  }
}

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.dataset.confirm;
  if (question !== undefined && !window.confirm(\`\${question}?\`)) return event.preventDefault();
  if (form.dataset.inline === undefined || form.method !== 'post' || form.enctype === 'multipart/form-data') return;
  event.preventDefault();
  void sendInline(form, event.submitter instanceof HTMLButtonElement ? event.submitter : null, null);
});

// A switch saves as soon as it is flipped when its form says so (data-inline with data-autosave): that switch alone.
document.addEventListener('change', (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.getAttribute('role') !== 'switch') return;
  const form = input.form;
  if (form && form.dataset.inline !== undefined && form.dataset.autosave !== undefined) void sendInline(form, null, input);
});
`;

/** The design system: tokens, the frame, components, then each page's few rules. */
export const STYLE_SHEET = `/* SayBot's dashboard: one small design system (tokens, frame, components). */
:root {
  color-scheme: light dark;
  --font: 'gg sans', 'Noto Sans', system-ui, -apple-system, 'Segoe UI', Roboto, 'Apple SD Gothic Neo', 'Hiragino Sans', sans-serif;
  --mono: ui-monospace, 'SFMono-Regular', Consolas, 'Noto Sans Mono', monospace;
  --text-xs: 0.75rem; --text-sm: 0.875rem; --text-md: 1rem; --text-lg: 1.25rem; --text-xl: 1.5rem;
  --space-1: 0.25rem; --space-2: 0.5rem; --space-3: 0.75rem; --space-4: 1rem; --space-5: 1.5rem; --space-6: 2rem;
  --radius: 8px; --radius-sm: 4px; --tap: 2.75rem; --side: 15rem;
  --bg: light-dark(#ffffff, #313338);
  --bg-alt: light-dark(#f2f3f5, #2b2d31);
  --bg-sunk: light-dark(#e3e5e8, #1e1f22);
  --surface: light-dark(#ffffff, #2b2d31);
  --field: light-dark(#ebedef, #1e1f22);
  --border: light-dark(#d4d7dc, #3f4147);
  --text: light-dark(#313338, #dbdee1);
  --text-strong: light-dark(#060607, #f2f3f5);
  --muted: light-dark(#4e5058, #b5bac1);
  --link: light-dark(#0051b8, #00a8fc);
  --accent: #5865f2; --accent-hover: #4752c4; --on-accent: #ffffff;
  --accent-soft: light-dark(#e6e8fd, #3c4270);
  --ok: light-dark(#1a7f41, #2dc770); --ok-bg: #248046;
  --danger: light-dark(#c4262b, #fa777c); --danger-bg: light-dark(#c4262b, #da373c);
  --focus: light-dark(#0051b8, #00a8fc);
  --chart-spent: light-dark(#5865f2, #7984f5); --chart-saved: light-dark(#1a7f41, #2dc770); --chart-budget: light-dark(#c4262b, #fa777c);
  --shadow: 0 1px 2px rgb(0 0 0 / 0.12), 0 2px 8px rgb(0 0 0 / 0.08);
}
:root[data-theme='light'] { color-scheme: light; }
:root[data-theme='dark'] { color-scheme: dark; }
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: var(--text-md)/1.5 var(--font); color: var(--text); background: var(--bg); overflow-wrap: anywhere; }
h1, h2, h3 { color: var(--text-strong); line-height: 1.25; margin: 0 0 var(--space-3); }
h1 { font-size: var(--text-xl); } h2 { font-size: var(--text-lg); } h3 { font-size: var(--text-md); }
p { margin: 0 0 var(--space-3); }
a { color: var(--link); text-underline-offset: 2px; }
img, svg { max-width: 100%; }
small, .hint { color: var(--muted); font-size: var(--text-sm); }
code, kbd, pre { font-family: var(--mono); font-size: 0.9em; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.skip { position: absolute; left: -999px; z-index: 10; }
.skip:focus { left: var(--space-4); top: var(--space-4); background: var(--bg); color: var(--text); padding: var(--space-2) var(--space-3); border-radius: var(--radius-sm); }

/* The frame: a top bar, the sidebar (a menu on a phone), the content. */
.shell { min-height: 100vh; display: grid; grid-template-columns: minmax(0, 1fr); grid-template-rows: auto auto 1fr; }
.topbar { display: flex; align-items: center; gap: var(--space-3); padding: var(--space-2) var(--space-4); background: var(--bg-sunk); min-height: 3.25rem; }
.brand { display: flex; align-items: center; gap: var(--space-2); color: var(--text-strong); font-weight: 700; text-decoration: none; margin-right: auto; }
.brand span { white-space: nowrap; }
.mark { width: 1.75rem; height: 1.75rem; flex: none; fill: var(--accent); }
.mark-wave { fill: none; stroke: #fff; stroke-width: 1.6; stroke-linecap: round; }
.topbar-end { display: flex; align-items: center; gap: var(--space-2); }
.account { position: relative; }
.account > summary { display: flex; align-items: center; gap: var(--space-2); min-height: var(--tap); padding: 0 var(--space-2); border-radius: var(--radius); cursor: pointer; list-style: none; }
.account > summary::-webkit-details-marker, .side > summary::-webkit-details-marker { display: none; }
.account > summary:hover { background: var(--bg-alt); }
.account-menu { position: absolute; right: 0; top: calc(100% + var(--space-1)); z-index: 5; display: grid; gap: var(--space-2); min-width: 14rem; padding: var(--space-3); background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); box-shadow: var(--shadow); }
.account-menu button { width: 100%; }
.account-menu .who { color: var(--muted); font-size: var(--text-sm); margin: 0; }
.side { background: var(--bg-alt); border-bottom: 1px solid var(--border); }
.side > summary { display: flex; align-items: center; gap: var(--space-2); min-height: 3rem; padding: var(--space-2) var(--space-4); font-weight: 600; cursor: pointer; list-style: none; }
.side > summary::after { content: ''; margin-left: auto; width: 0.6rem; height: 0.6rem; border: solid var(--muted); border-width: 0 2px 2px 0; transform: rotate(45deg); }
.side[open] > summary::after { transform: rotate(225deg); }
.side-body { padding: var(--space-2) var(--space-3) var(--space-4); }
.side-server { display: flex; align-items: center; gap: var(--space-3); padding: var(--space-2); margin-bottom: var(--space-2); }
.side-name { font-weight: 700; color: var(--text-strong); margin: 0; }
.side-nav { list-style: none; margin: 0; padding: 0; display: grid; gap: 2px; }
.side-nav a { display: flex; align-items: center; gap: var(--space-3); min-height: var(--tap); padding: 0 var(--space-3); border-radius: var(--radius-sm); color: var(--muted); text-decoration: none; font-weight: 500; }
.side-nav a:hover { background: var(--bg-sunk); color: var(--text); }
.side-nav a[aria-current='page'] { background: var(--accent-soft); color: var(--text-strong); }
.side-back { margin: var(--space-3) 0 0; padding: 0 var(--space-3); font-size: var(--text-sm); }
.icon { width: 1.25rem; height: 1.25rem; flex: none; fill: none; stroke: currentColor; stroke-width: 1.6; stroke-linecap: round; stroke-linejoin: round; }
main { padding: var(--space-5) var(--space-4) var(--space-6); width: 100%; max-width: 64rem; min-width: 0; }
@media (min-width: 48rem) {
  .shell.with-side { grid-template-columns: var(--side) minmax(0, 1fr); grid-template-rows: auto 1fr; }
  .topbar { grid-column: 1 / -1; }
  .side { border-bottom: 0; border-right: 1px solid var(--border); }
  .side > summary { display: none; }
  .side::details-content { content-visibility: visible; display: block; height: auto; }
  .side-body { position: sticky; top: 0; padding-top: var(--space-4); }
  main { padding: var(--space-6) var(--space-6) var(--space-6); }
}

/* The hidden attribute wins over any display set below (a button's inline-flex would show the theme switch, which
   only the script makes work, on a page without script). */
[hidden] { display: none !important; }

/* Buttons: primary (accent), plain, danger, ghost; a link can look like one (.button). */
button, .button {
  display: inline-flex; align-items: center; justify-content: center; gap: var(--space-2);
  min-height: var(--tap); padding: 0 var(--space-4); border: 0; border-radius: var(--radius-sm);
  font: 500 var(--text-md)/1.2 var(--font); text-decoration: none; cursor: pointer;
  background: var(--bg-sunk); color: var(--text-strong);
}
button:hover, .button:hover { filter: brightness(0.95); }
button[type='submit'], .button.primary, button.primary { background: var(--accent); color: var(--on-accent); }
button[type='submit']:hover, .button.primary:hover, button.primary:hover { background: var(--accent-hover); filter: none; }
button.secondary, button[type='submit'].secondary, .button.secondary { background: var(--bg-sunk); color: var(--text-strong); }
button.danger, button[type='submit'].danger { background: var(--danger-bg); color: #fff; }
button.ghost { background: transparent; color: var(--text); }
button.ghost:hover { background: var(--bg-alt); }
button:disabled { opacity: 0.6; cursor: default; }
button.small, .button.small { min-height: 2.25rem; padding: 0 var(--space-3); font-size: var(--text-sm); }
.theme-switch { font-size: var(--text-sm); padding: 0 var(--space-3); }
.theme-switch .icon { width: 1.125rem; height: 1.125rem; }
@media (max-width: 30rem) {
  .account-name, .theme-switch span { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .topbar { gap: var(--space-1); padding: var(--space-1) var(--space-3); }
}
@media (max-width: 47.99rem) { .side-server { display: none; } }

/* Forms: labels above fields, fields a thumb can hit. */
input, select, textarea { font: inherit; color: var(--text); background: var(--field); border: 1px solid var(--border); border-radius: var(--radius-sm); min-height: var(--tap); padding: var(--space-2) var(--space-3); max-width: 100%; }
textarea { min-height: 6rem; }
input[type='checkbox'], input[type='radio'] { min-height: 0; width: 1.25rem; height: 1.25rem; accent-color: var(--accent); }
input[type='file'] { padding: var(--space-2); width: 100%; }
label { font-weight: 600; color: var(--text-strong); font-size: var(--text-sm); }
.stack { display: grid; gap: var(--space-2); max-width: 36rem; margin: 0 0 var(--space-5); }
.stack > button, .stack > .actions { justify-self: start; margin-top: var(--space-2); }
.field { display: grid; gap: var(--space-1); }
.check { display: flex; gap: var(--space-2); align-items: center; }
.search { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: end; margin: 0 0 var(--space-4); }
.search > .field { flex: 1 1 10rem; }
.search input, .search select { width: 100%; }
form.inline { display: inline; }
.row-form { display: flex; flex-wrap: wrap; gap: var(--space-2); margin: 0 0 var(--space-2); align-items: center; }
.row-form input[type='number'] { width: 5.5rem; }

/* The switch for an on/off setting (components.ts toggle). */
.toggle { display: grid; grid-template-columns: auto 1fr; gap: var(--space-1) var(--space-3); align-items: center; min-height: var(--tap); }
.toggle .hint { grid-column: 2; }
.toggle input[role='switch'] { appearance: none; width: 2.75rem; height: 1.5rem; margin: 0; border-radius: 999px; background: light-dark(#80848e, #80848e); border: 0; position: relative; cursor: pointer; transition: background 0.15s; }
.toggle input[role='switch']::before { content: ''; position: absolute; top: 3px; left: 3px; width: 1.125rem; height: 1.125rem; border-radius: 50%; background: #fff; transition: transform 0.15s; }
.toggle input[role='switch']:checked { background: var(--ok-bg); }
.toggle input[role='switch']:checked::before { transform: translateX(1.25rem); }

/* Cards, badges, notices, empty states. */
.card { background: var(--bg-alt); border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-4); margin: 0 0 var(--space-4); }
.card-head { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: var(--space-2); margin-bottom: var(--space-3); }
.card-head h2 { margin: 0; }
.card-danger { border-color: var(--danger-bg); }
.cards { display: grid; gap: var(--space-3); grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); }
.badge, .tag { display: inline-block; padding: 0 var(--space-2); border-radius: 999px; font-size: var(--text-xs); font-weight: 600; line-height: 1.6; background: var(--bg-sunk); color: var(--text); vertical-align: middle; }
.badge-accent { background: var(--accent); color: var(--on-accent); }
.badge-ok { background: var(--ok-bg); color: #fff; }
.badge-danger { background: var(--danger-bg); color: #fff; }
.notice { padding: var(--space-3) var(--space-4); border-radius: var(--radius-sm); border-left: 4px solid var(--ok); background: var(--bg-alt); }
.notice.error { border-color: var(--danger); }
.saved { margin-left: var(--space-2); color: var(--ok); font-weight: 600; font-size: var(--text-sm); }
.saved:not(:empty)::before { content: '✓ '; }
.saved.error { color: var(--danger); }
.saved.error::before { content: ''; }
.empty { text-align: center; padding: var(--space-6) var(--space-4); border: 2px dashed var(--border); border-radius: var(--radius); color: var(--muted); }
.empty-title { font-weight: 700; color: var(--text-strong); font-size: var(--text-lg); }
blockquote { border-left: 4px solid var(--border); margin: var(--space-2) 0; padding: var(--space-1) var(--space-3); }

/* Pictures: a server's icon (squircle) or a member's avatar (round), initials when there is none. */
.pic { flex: none; display: inline-grid; place-items: center; object-fit: cover; background: var(--bg-sunk); font-weight: 700; color: #fff; }
.pic-sm { width: 2rem; height: 2rem; font-size: var(--text-xs); }
.pic-md { width: 2.5rem; height: 2.5rem; font-size: var(--text-sm); }
.pic-lg { width: 3rem; height: 3rem; font-size: var(--text-md); }
.pic-round { border-radius: 50%; }
.pic-squircle { border-radius: 30%; }
.pic-c0 { background: #5865f2; } .pic-c1 { background: #1f7a3e; } .pic-c2 { background: #a3421a; } .pic-c3 { background: #b3245c; }
.pic-c4 { background: #6a43b5; } .pic-c5 { background: #0b6e8a; } .pic-c6 { background: #8a5a00; } .pic-c7 { background: #4e5058; }

/* Tables: a list as rows on a wide screen, as cards on a phone. */
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; color: var(--muted); padding-bottom: var(--space-2); }
/* break-word, not the page's anywhere: a column is sized by its whole words ("alice: 56", "SERVED"), and only a word wider than the table breaks. */
th, td { text-align: left; padding: var(--space-2) var(--space-3); border-bottom: 1px solid var(--border); vertical-align: middle; overflow-wrap: break-word; }
thead th { font-size: var(--text-xs); text-transform: uppercase; letter-spacing: 0.02em; color: var(--muted); }
.actions { white-space: nowrap; }
@media (max-width: 40rem) {
  table.stacked thead { display: none; }
  table.stacked tr, table.stacked td, table.stacked th { display: block; border: 0; padding: var(--space-1) 0; }
  table.stacked tr { border-bottom: 1px solid var(--border); padding: var(--space-3) 0; }
  .actions { white-space: normal; }
}

/* A menu of more actions behind one button (a voice's default, pool, delete). */
.more { position: relative; }
.more > summary { display: grid; place-items: center; width: var(--tap); height: var(--tap); border-radius: var(--radius-sm); cursor: pointer; list-style: none; color: var(--muted); }
.more > summary::-webkit-details-marker { display: none; }
.more > summary:hover { background: var(--bg-sunk); color: var(--text); }
.more > summary .icon { stroke-width: 3; }
.more-menu { position: absolute; right: 0; top: calc(100% + var(--space-1)); z-index: 4; display: grid; gap: var(--space-2); width: max-content; max-width: min(20rem, 80vw); padding: var(--space-2); background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); box-shadow: var(--shadow); }
.more-menu form, .more-menu button { width: 100%; }
.more-menu button { justify-content: flex-start; text-align: left; }

/* The voices page: compact rows, a play button, one "Use", the rest in a menu. */
.search .field-wide { flex: 2 1 14rem; }
.voice-list { list-style: none; margin: 0; padding: 0; border: 1px solid var(--border); border-radius: var(--radius); background: var(--bg-alt); }
.voice { display: flex; align-items: center; gap: var(--space-3); padding: var(--space-2) var(--space-3); }
.voice + .voice { border-top: 1px solid var(--border); }
.voice-about { flex: 1; min-width: 0; }
.voice-about p { margin: 0; }
.voice-name strong { color: var(--text-strong); }
.voice-detail { color: var(--muted); font-size: var(--text-sm); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.voice-actions { display: flex; align-items: center; gap: var(--space-1); }
button.play { width: var(--tap); padding: 0; border-radius: 50%; }
button.play .icon { fill: currentColor; }

/* The servers' list and a server's overview. */
.servers { list-style: none; padding: 0; margin: 0; display: grid; gap: var(--space-3); grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); }
.server-card { position: relative; display: flex; align-items: center; gap: var(--space-3); padding: var(--space-3) var(--space-4); background: var(--bg-alt); border: 1px solid var(--border); border-radius: var(--radius); }
.server-card:hover { border-color: var(--accent); }
.server-card a { color: var(--text-strong); font-weight: 700; text-decoration: none; margin-right: auto; }
.server-card a::after { content: ''; position: absolute; inset: 0; border-radius: var(--radius); }
.overview { display: grid; gap: var(--space-3); grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); margin: 0; }
.overview-item { background: var(--bg-alt); border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-3) var(--space-4); }
.overview dt { display: flex; align-items: center; gap: var(--space-2); font-weight: 700; color: var(--text-strong); }
.overview dd { margin: var(--space-1) 0 0; color: var(--muted); font-size: var(--text-sm); }

/* The dictionary: a row's reading editable in place; on a phone each entry is a block. */
.dictionary .row-form input[type='text'] { flex: 1 1 8rem; min-width: 0; }
.dictionary .who-when { color: var(--muted); font-size: var(--text-sm); }
@media (max-width: 40rem) {
  table.dictionary td:first-child, table.dictionary th[scope='row'] { display: inline-block; padding-right: var(--space-2); }
  table.dictionary .who-when { display: inline-block; padding-right: var(--space-3); }
  .row-form { display: flex; }
}

/* Settings: fields side by side on a wide screen, one column on a phone. */
.settings-grid { display: grid; gap: var(--space-3) var(--space-4); grid-template-columns: repeat(auto-fill, minmax(min(100%, 14rem), 1fr)); margin-bottom: var(--space-4); }
.settings-grid input, .settings-grid select { width: 100%; }
.button-row { display: flex; flex-wrap: wrap; gap: var(--space-2); }

/* Paging. */
.pager { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-3); margin: var(--space-4) 0; }
`;
