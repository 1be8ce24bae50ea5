// The Scenes page's script, bundled with CodeMirror 6 into ./scenes.bundle.js (`npm run build:web`; the bundle is
// committed, so a production install serves it with no build step, and test/features/dashboard/web-bundle.test.ts
// checks it is current). The Content Security Policy allows scripts from this origin only, never inline; CodeMirror
// adds its own few rules through a constructed stylesheet, the page's are in ./scenes.css.
//
// Without this script the page still saves and opens scenes with its textarea. With it the textarea becomes an
// editor that keeps the textarea's value (the form still posts it): each speaker's lines are marked with a class of
// their own, and the line the parser refuses is underlined, from the server's check (checkScript, the one parser)
// as it is typed; then the cast as a table with a button to hear each speaker, the cost in a bar that stays in view,
// and the buttons that make the scene, whose file plays in the page. Every price on a button is the ceiling sent with
// its press: the server never pays more, and answers a higher price by showing it again. Text from the server is put
// in with textContent, never as markup. The work here is bounded by the script's caps (FORM_SCRIPT_MAX characters,
// SCENE_CAPS.lines lines): the marks are made from the check's list of lines, at most one a line.
import { EditorState, StateEffect, StateField } from '@codemirror/state';
import { Decoration, EditorView, keymap, lineNumbers } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';

/** Colours for speakers (scenes.css: .scene-speaker-0 … -9), as many as a scene may have (SCENE_CAPS.speakers). */
const SPEAKER_COLOURS = 10;
const CAST_LINE = /^\s*cast\s*[:\uff1a]/i;

const root = document.getElementById('scene-studio');
if (root) start(root);

function start(root) {
  const base = root.dataset.base;
  const csrf = document.querySelector('input[name="_csrf"]')?.value ?? '';
  const $ = (id) => document.getElementById(id);
  const textarea = $('scene-script');
  const check = $('scene-check');
  const castPart = $('scene-cast-part');
  const costPart = $('scene-cost-part');
  const make = $('scene-make');
  const play = $('scene-play');
  const result = $('scene-result');
  const downloads = $('scene-downloads');
  const sceneAudio = $('scene-audio');
  const lineAudio = $('scene-line-audio');
  // A count's words as the catalogue writes them (src/core/i18n/catalogue.ts): {lines, plural, one {# line} other
  // {# lines}}, the branch Intl.PluralRules picks in the page's language (an exact =N first, else `other`).
  const plurals = new Intl.PluralRules(document.documentElement.lang || 'en');
  const PLURAL = /\{(\w+), plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}/g;
  const BRANCH = /(=\d+|zero|one|two|few|many|other)\s*\{([^{}]*)\}/g;
  const counted = (words, params) =>
    words.replace(PLURAL, (whole, name, branches) => {
      if (!(name in params)) return whole;
      const count = Number(String(params[name]).replace(/[^\d.-]/g, ''));
      const forms = new Map([...branches.matchAll(BRANCH)].map((m) => [m[1], m[2]]));
      const form = forms.get('=' + count) ?? forms.get(plurals.select(count)) ?? forms.get('other') ?? '#';
      return form.replaceAll('#', String(params[name]));
    });
  const text = (key, params = {}) =>
    counted(root.dataset['t' + key.replace(/(^|[-.])(\w)/g, (_, __, c) => c.toUpperCase())] ?? key, params).replace(
      /\{(\w+)\}/g,
      (whole, name) => (name in params ? String(params[name]) : whole),
    );
  let quote;
  let sent;
  let checkTimer;
  let quoteTimer;
  /** Speakers by their folded name, in order of first appearance: their colour's number. */
  let speakerIndex = new Map();
  const colourOf = (name) => (speakerIndex.get(name.toLowerCase()) ?? 0) % SPEAKER_COLOURS;

  // The marks on the script's lines, set from each check and moved with the text as it is edited until the next:
  // the speakers' from the last script that read well (kept while a line is wrong), the refused line's from the last.
  const markField = (effect) =>
    StateField.define({
      create: () => Decoration.none,
      update(value, transaction) {
        let next = value.map(transaction.changes);
        for (const each of transaction.effects) if (each.is(effect)) next = each.value;
        return next;
      },
      provide: (field) => EditorView.decorations.from(field),
    });
  const setSpeakers = StateEffect.define();
  const setError = StateEffect.define();
  const marks = [markField(setSpeakers), markField(setError)];

  /** A class per speaker on their turns' lines (and one on cast and pause lines), from a check that read well. */
  function speakerMarks(doc, read) {
    speakerIndex = new Map();
    const ranges = [];
    for (const each of read) {
      if (each.line > doc.lines) continue;
      const { from } = doc.line(each.line);
      if (each.kind !== 'turn') {
        ranges.push(Decoration.line({ class: `scene-${each.kind}` }).range(from));
        continue;
      }
      const key = each.speaker.toLowerCase();
      if (!speakerIndex.has(key)) speakerIndex.set(key, speakerIndex.size);
      const mark = {
        class: `scene-speaker scene-speaker-${colourOf(key)}`,
        attributes: { 'data-speaker': each.speaker },
      };
      ranges.push(Decoration.line(mark).range(from));
    }
    return Decoration.set(ranges, true);
  }

  /** The refused line marked, its text underlined (the message as its title); none for the whole script's error. */
  function errorMarks(doc, answer) {
    if (answer.ok !== false || answer.line < 1 || answer.line > doc.lines) return Decoration.none;
    const line = doc.line(answer.line);
    const ranges = [Decoration.line({ class: 'scene-line-error' }).range(line.from)];
    const attributes = { title: answer.error.replaceAll('`', '') };
    if (line.to > line.from)
      ranges.push(Decoration.mark({ class: 'scene-error', attributes }).range(line.from, line.to));
    return Decoration.set(ranges, true);
  }

  const maxLength = Number(textarea.getAttribute('maxlength')) || Infinity;
  const label = document.querySelector('label[for="scene-script"]');
  label.id = 'scene-script-label';
  const view = new EditorView({
    parent: textarea.parentElement,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(),
        history(),
        // Tab is left to move the focus on (no indenting keymap): the page stays usable by keyboard.
        keymap.of([...defaultKeymap, ...historyKeymap]),
        EditorView.lineWrapping,
        marks,
        EditorView.contentAttributes.of({
          'aria-labelledby': label.id,
          'aria-describedby': 'scene-check',
          spellcheck: 'false',
        }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          textarea.value = update.state.doc.toString();
          edited();
        }),
      ],
    }),
  });
  textarea.after(view.dom);
  textarea.hidden = true;
  // The editor holds the script now; the server still refuses an empty one.
  textarea.required = false;
  const source = () => view.state.doc.toString();
  // Past the textarea's limit the script is kept as pasted or typed (nothing thrown away) and answered: too long,
  // with nothing checked, made, played or saved until it is cut (the server refuses it all the same).
  const overLimit = () => view.state.doc.length > maxLength;
  function showTooLong() {
    sent = undefined;
    clearTimeout(checkTimer);
    clearTimeout(quoteTimer);
    setButtons(false);
    showCheck({ ok: false, line: 0, error: text('tooLong') });
  }
  textarea.form?.addEventListener('submit', (event) => {
    if (!overLimit()) return;
    event.preventDefault();
    showTooLong();
  });

  async function post(path, body) {
    const response = await fetch(base + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('application/json')) return { error: text('failed', { status: response.status }) };
    return response.json();
  }

  // The scenes feature's messages are Discord's words (the /scene command's): `code` is shown here as <code>, each
  // part as text, never as markup.
  function showMessage(element, message) {
    element.replaceChildren(
      ...message.split('`').map((part, index) => {
        if (index % 2 === 0) return part;
        const code = document.createElement('code');
        code.textContent = part;
        return code;
      }),
    );
  }

  function showCheck(answer) {
    check.classList.toggle('error', answer.ok === false);
    view.contentDOM.setAttribute('aria-invalid', answer.ok === false ? 'true' : 'false');
    if (answer.ok === false) {
      check.setAttribute('role', 'alert');
      // A message that names its line already (the server says so) is shown as it is, another with its line first.
      showMessage(
        check,
        answer.line < 1 || answer.namesLine === true
          ? answer.error
          : text('lineError', { line: answer.line, message: answer.error }),
      );
    } else {
      check.removeAttribute('role');
      showMessage(
        check,
        answer.ok ? text('scriptOk', { lines: answer.lines, speakers: answer.speakers }) : answer.error,
      );
    }
    if (answer.ok === null) return;
    const effects = [setError.of(errorMarks(view.state.doc, answer))];
    if (answer.ok) effects.push(setSpeakers.of(speakerMarks(view.state.doc, answer.read)));
    view.dispatch({ effects });
  }

  function setButtons(enabled) {
    for (const button of [make, play]) button.disabled = !enabled;
  }

  // A button that makes turn 'index' alone, its price on it (key, or key + 'Free' when it costs nothing).
  function hearButton(index, turn, key, params) {
    const hear = document.createElement('button');
    hear.type = 'button';
    hear.dataset.index = String(index);
    hear.dataset.characters = String(turn.characters);
    hear.textContent =
      turn.characters > 0 ? text(key, { ...params, characters: turn.characters }) : text(key + 'Free', params);
    return hear;
  }

  const cell = (...content) => {
    const td = document.createElement('td');
    td.append(...content);
    return td;
  };

  function showQuote(shown) {
    quote = shown;
    castPart.hidden = false;
    $('scene-cast').replaceChildren(
      ...shown.cast.map((speaker) => {
        const row = document.createElement('tr');
        const name = document.createElement('th');
        name.scope = 'row';
        name.className = `scene-speaker scene-speaker-${colourOf(speaker.name)}`;
        name.textContent = speaker.name;
        const input = document.createElement('input');
        input.value = speaker.voice;
        input.setAttribute('aria-label', speaker.name);
        input.dataset.speaker = speaker.name;
        input.className = 'scene-voice';
        const from = document.createElement('span');
        from.className = 'tag';
        from.textContent = text('from.' + speaker.from);
        const turns = shown.turns.filter((turn) => turn.speaker === speaker.name).length;
        // The speaker's voice heard saying their first line, alone (its price on the button).
        const first = shown.turns.findIndex((turn) => turn.speaker === speaker.name);
        const turn = shown.turns[first];
        const hear = turn ? hearButton(first, turn, 'hearVoice', { name: speaker.name }) : '';
        row.append(name, cell(input, ' ', from), cell(String(turns)), cell(hear));
        return row;
      }),
    );
    $('scene-lines').replaceChildren(
      ...shown.turns.map((turn, index) => {
        const item = document.createElement('li');
        const words = document.createElement('span');
        words.className = `scene-speaker scene-speaker-${colourOf(turn.speaker)}`;
        words.textContent = turn.speaker + ': ' + turn.text + ' ';
        item.append(words, hearButton(index, turn, 'hearLine', { line: turn.line }));
        return item;
      }),
    );
    $('scene-cost').textContent =
      shown.characters > 0
        ? text('costPaid', {
            characters: shown.characters,
            cached: shown.cachedLines,
            lines: shown.lines,
            seconds: shown.seconds,
          })
        : text('costFree', { seconds: shown.seconds });
    const budgets = [];
    if (shown.budgets.member) budgets.push(text('budgetMember', shown.budgets.member));
    if (shown.budgets.guild) budgets.push(text('budgetGuild', shown.budgets.guild));
    if (budgets.length === 0) budgets.push(text('budgetNone'));
    const over = shown.budgets.left !== null && shown.characters > shown.budgets.left;
    if (over) budgets.push(text('budgetOver'));
    $('scene-budgets').textContent = budgets.join(' ');
    const price = { characters: shown.characters };
    make.textContent = shown.characters > 0 ? text('make', price) : text('makeFree');
    play.textContent = shown.characters > 0 ? text('play', price) : text('playFree');
    setButtons(!over);
  }

  async function runCheck() {
    if (overLimit()) return showTooLong();
    const script = source();
    if (script === sent) return;
    sent = script;
    const answer = await post('/check', { script });
    if (source() !== script) return;
    showCheck(answer);
    clearTimeout(quoteTimer);
    if (answer.ok) quoteTimer = setTimeout(runQuote, 500);
  }

  async function runQuote() {
    const script = source();
    const answer = await post('/quote', { script, output: 'file' });
    if (source() !== script) return;
    if (answer.error !== undefined) {
      showCheck({ ok: null, error: answer.error });
      return;
    }
    showQuote(answer.quote);
  }

  function edited() {
    if (overLimit()) return showTooLong();
    setButtons(false);
    clearTimeout(checkTimer);
    clearTimeout(quoteTimer);
    checkTimer = setTimeout(runCheck, 400);
  }

  // A voice changed in the cast table: written into the script's cast line (as the member would type it).
  root.addEventListener('change', (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.classList.contains('scene-voice')) return;
    const name = input.dataset.speaker;
    const voice = input.value.trim();
    if (!name || !voice) return;
    const doc = view.state.doc;
    let at;
    for (let number = 1; number <= doc.lines && at === undefined; number++)
      if (CAST_LINE.test(doc.line(number).text)) at = doc.line(number);
    const entries = at
      ? at.text
          .replace(CAST_LINE, '')
          .split(',')
          .map((e) => e.trim())
          .filter(Boolean)
      : [];
    const key = name.toLowerCase();
    const kept = entries.filter((entry) => entry.split('=')[0].trim().toLowerCase() !== key);
    const line = 'cast: ' + [...kept, name + ' = ' + voice].join(', ');
    view.dispatch({ changes: at ? { from: at.from, to: at.to, insert: line } : { from: 0, insert: line + '\n' } });
  });

  async function run(path, body, done) {
    if (overLimit()) return showTooLong();
    setButtons(false);
    result.textContent = text('working');
    const answer = await post(path, body);
    if (answer.priceChanged) {
      showQuote(answer.quote);
      result.textContent = text('priceChanged');
      return;
    }
    setButtons(true);
    if (answer.error !== undefined) {
      showMessage(result, answer.error);
      return;
    }
    done(answer);
  }

  make.addEventListener('click', () => {
    if (!quote) return;
    downloads.hidden = true;
    run('/make', { script: source(), quoted: quote.characters, format: $('scene-format').value }, (answer) => {
      $('scene-audio-link').href = answer.audio;
      $('scene-srt-link').href = answer.srt;
      // The made file, heard here (the same kept file the link downloads).
      sceneAudio.src = answer.audio;
      downloads.hidden = false;
      result.textContent = answer.text;
      // What it cost is now in the cache: the next quote says so.
      runQuote();
    });
  });

  play.addEventListener('click', () => {
    if (!quote) return;
    run('/play', { script: source(), quoted: quote.characters }, (answer) => {
      result.textContent = answer.text;
      runQuote();
    });
  });

  const hearOne = (event) => {
    const button = event.target;
    if (!(button instanceof HTMLButtonElement) || button.dataset.index === undefined) return;
    const body = {
      script: source(),
      quoted: Number(button.dataset.characters),
      line: Number(button.dataset.index),
      format: 'wav',
    };
    run('/make', body, (answer) => {
      result.textContent = answer.text;
      lineAudio.src = answer.audio;
      lineAudio.hidden = false;
      lineAudio.play().catch(() => {});
      runQuote();
    });
  };
  $('scene-lines').addEventListener('click', hearOne);
  $('scene-cast').addEventListener('click', hearOne);

  // The cost bar is shown from the start, saying where the cost will be.
  costPart.hidden = false;
  $('scene-cost').textContent = text('costNone');
  if (source().trim() !== '') runCheck();
}
