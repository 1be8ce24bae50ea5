// The dashboard's only script and its one stylesheet, served as files (/static/app.js, /static/style.css): the Content
// Security Policy allows scripts and styles from this origin only, never inline. Kept here as text so that they ship
// with the code and need no build step.

/** Pages work without it; it asks before a form marked data-confirm (remove, import, delete my data) is sent. */
export const APP_SCRIPT = `// The dashboard's only script (no inline script: the Content Security Policy allows this file alone). Pages work
// without it; it asks before a form marked data-confirm (remove, import, delete my data) is sent.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.dataset.confirm;
  if (question !== undefined && !window.confirm(\`\${question}?\`)) event.preventDefault();
});
`;

/** Readable on a phone, visible focus, enough contrast; the system's light or dark colours. */
export const STYLE_SHEET = `/* The dashboard's one stylesheet: readable on a phone, visible focus, enough contrast. */
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0 auto; max-width: 72rem; padding: 0 1rem 3rem; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: Canvas; padding: 0.5rem; z-index: 1; }
header { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; border-bottom: 1px solid GrayText; }
header .brand { font-weight: bold; margin-right: auto; }
form.inline { display: inline; }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible {
  outline: 3px solid Highlight; outline-offset: 2px;
}
button, .button { font: inherit; padding: 0.4rem 0.9rem; min-height: 2.5rem; cursor: pointer; }
.button { display: inline-block; border: 1px solid currentColor; border-radius: 4px; text-decoration: none; }
.danger { border: 2px solid #b00020; }
.notice { padding: 0.6rem 0.9rem; border-left: 4px solid; }
.notice.ok { border-color: #1b7f3b; }
.notice.error { border-color: #b00020; }
.tag { font-size: 0.8em; border: 1px solid GrayText; border-radius: 3px; padding: 0 0.3em; }
.nav { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; list-style: none; padding: 0; }
.stack { display: grid; gap: 0.4rem; max-width: 36rem; margin-bottom: 1.5rem; }
.check { display: flex; gap: 0.5rem; align-items: center; }
.search { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 1rem 0; }
input, select, textarea { font: inherit; padding: 0.3rem; min-height: 2.2rem; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.4rem; border-bottom: 1px solid GrayText; vertical-align: top; }
.row-form { display: flex; flex-wrap: wrap; gap: 0.3rem; margin: 0 0 0.3rem; }
.row-form input[type='number'] { width: 5rem; }
.actions { white-space: nowrap; }
blockquote { border-left: 4px solid GrayText; margin: 0.5rem 0; padding: 0.3rem 0.8rem; }
@media (max-width: 40rem) {
  thead { display: none; }
  tr, td, th { display: block; border: 0; }
  tr { border-bottom: 1px solid GrayText; padding: 0.5rem 0; }
}
`;
