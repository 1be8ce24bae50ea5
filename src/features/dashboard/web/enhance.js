// Every dashboard page's script, served as /static/app.js (deferred): a file, never inline, as the Content Security
// Policy allows scripts from this origin alone. Pages work without it. It asks before a form marked data-confirm
// (remove, import, delete my data) is sent; sends a form marked data-inline in the background and shows its answer
// beside the button (swapping in the parts of the page marked data-refresh); shows the theme switch and keeps its
// choice; keeps one "more" menu open at a time, closed by Escape or a click elsewhere; gives a field that takes a
// word or a pattern the length limit of what it holds. The words it shows come from the page (data-t-* on <body>), in
// the member's language.
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
    } catch {
      // Storage refused: the choice holds for this page only.
    }
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
  setTimeout(() => {
    note.textContent = text;
  }, 50);
}

/** A switch's value as its form would send it: its own when ticked, else its hidden "off" field's. */
function switchValue(input) {
  if (input.checked) return input.value;
  const off = input.form.querySelector(`input[type="hidden"][name="${CSS.escape(input.name)}"]`);
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
    ? new URLSearchParams([
        ['_csrf', form.elements.namedItem('_csrf')?.value ?? ''],
        [only.name, switchValue(only)],
      ])
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
  if (question !== undefined && !window.confirm(`${question}?`)) return event.preventDefault();
  if (form.dataset.inline === undefined || form.method !== 'post' || form.enctype === 'multipart/form-data') return;
  event.preventDefault();
  void sendInline(form, event.submitter instanceof HTMLButtonElement ? event.submitter : null, null);
});

// A field that takes a word or, its form's box ticked, a pattern (data-pattern-maxlength): the limit of what it holds,
// the server's (the page gives both; without script the field keeps the word's).
document.addEventListener('change', (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || box.type !== 'checkbox' || box.value !== 'pattern' || !box.form) return;
  for (const field of box.form.querySelectorAll('input[data-pattern-maxlength][data-word-maxlength]'))
    field.maxLength = Number(box.checked ? field.dataset.patternMaxlength : field.dataset.wordMaxlength);
});

// A switch saves as soon as it is flipped when its form says so (data-inline with data-autosave): that switch alone.
document.addEventListener('change', (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.getAttribute('role') !== 'switch') return;
  const form = input.form;
  if (form && form.dataset.inline !== undefined && form.dataset.autosave !== undefined)
    void sendInline(form, null, input);
});

// A "more" menu (<details class="more">, a voice's or an entry's other actions) behaves as a menu: opening one closes
// the others, and Escape or a click (a tap) outside it closes it; Escape gives the focus back to its button when the
// focus was in the menu or nowhere (a tap on the menu's background leaves it on the body), not when it is elsewhere.
const openMenus = () => [...document.querySelectorAll('details.more[open]')];
document.addEventListener(
  'toggle',
  (event) => {
    const opened = event.target;
    if (typeof opened.matches !== 'function' || !opened.matches('details.more[open]')) return;
    for (const other of openMenus()) if (other !== opened) other.open = false;
  },
  true,
);
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  const lost = document.activeElement === null || document.activeElement === document.body;
  for (const menu of openMenus()) {
    const focused = lost || menu.contains(document.activeElement);
    menu.open = false;
    if (focused) menu.querySelector('summary')?.focus();
  }
});
document.addEventListener('click', (event) => {
  for (const menu of openMenus()) if (!menu.contains(event.target)) menu.open = false;
});
