// The Scenes page's script (/static/scenes.js), kept as text so it ships with the code and needs no build step; the
// Content Security Policy allows scripts from this origin only, never inline. Without it the page still saves and
// opens scenes; with it the script is checked as it is typed (each error on its line), and the cast, the cost and
// the buttons follow. Every price on a button is the ceiling sent with its press: the server never pays more, and
// answers a higher price by showing it again. Text from the server is put in with textContent, never as markup.

export const SCENES_SCRIPT = `// The Scenes page: the script checked as it is typed, its cast and cost, and the buttons that make it.
(() => {
  const root = document.getElementById('scene-studio');
  if (!root) return;
  const base = root.dataset.base;
  const csrf = document.querySelector('input[name="_csrf"]')?.value ?? '';
  const $ = (id) => document.getElementById(id);
  const script = $('scene-script');
  const gutter = $('scene-gutter');
  const check = $('scene-check');
  const castPart = $('scene-cast-part');
  const costPart = $('scene-cost-part');
  const make = $('scene-make');
  const play = $('scene-play');
  const result = $('scene-result');
  const downloads = $('scene-downloads');
  const lineAudio = $('scene-line-audio');
  const text = (key, params = {}) =>
    (root.dataset['t' + key.replace(/(^|[-.])(\\w)/g, (_, __, c) => c.toUpperCase())] ?? key).replace(
      /\\{(\\w+)\\}/g,
      (whole, name) => (name in params ? String(params[name]) : whole),
    );
  let quote;
  let sent = '';
  let checkTimer;
  let quoteTimer;

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

  // Each line's number, marked with what the parser read it as (a speaker's turn names them, a cast line, a pause)
  // or as the line in error.
  function markLine(line, read = []) {
    const count = script.value.split('\\n').length;
    const kinds = new Map(read.map((each) => [each.line, each]));
    gutter.replaceChildren();
    gutter.style.height = script.offsetHeight + 'px';
    for (let i = 1; i <= count; i++) {
      const item = document.createElement('li');
      const kind = kinds.get(i);
      item.textContent = kind?.kind === 'turn' ? i + ' ' + kind.speaker : kind ? i + ' ' + kind.kind : String(i);
      item.className = i === line ? 'error' : (kind?.kind ?? '');
      gutter.append(item);
    }
  }

  function showCheck(answer) {
    check.classList.toggle('error', answer.ok === false);
    script.setAttribute('aria-invalid', answer.ok === false ? 'true' : 'false');
    if (answer.ok === false) {
      check.setAttribute('role', 'alert');
      check.textContent = answer.line > 0 ? text('lineError', { line: answer.line, message: answer.error }) : answer.error;
      markLine(answer.line);
      return;
    }
    check.removeAttribute('role');
    check.textContent = answer.ok ? text('scriptOk', { lines: answer.lines, speakers: answer.speakers }) : answer.error;
    markLine(0, answer.read);
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

  function showQuote(shown) {
    quote = shown;
    castPart.hidden = false;
    costPart.hidden = false;
    const cast = $('scene-cast');
    cast.replaceChildren(
      ...shown.cast.map((speaker) => {
        const row = document.createElement('tr');
        const name = document.createElement('td');
        name.textContent = speaker.name;
        const voice = document.createElement('td');
        const label = document.createElement('label');
        const input = document.createElement('input');
        input.value = speaker.voice;
        input.setAttribute('aria-label', speaker.name);
        input.dataset.speaker = speaker.name;
        input.className = 'scene-voice';
        label.append(input);
        const from = document.createElement('span');
        from.className = 'tag';
        from.textContent = text('from.' + speaker.from);
        voice.append(label, ' ', from);
        // The speaker's voice heard saying their first line, alone (its price on the button).
        const first = shown.turns.findIndex((turn) => turn.speaker === speaker.name);
        const turn = shown.turns[first];
        if (turn) voice.append(' ', hearButton(first, turn, 'hearVoice', { name: speaker.name }));
        row.append(name, voice);
        return row;
      }),
    );
    const lines = $('scene-lines');
    lines.replaceChildren(
      ...shown.turns.map((turn, index) => {
        const item = document.createElement('li');
        const words = document.createElement('span');
        words.textContent = turn.speaker + ': ' + turn.text + ' ';
        item.append(words, hearButton(index, turn, 'hearLine', { line: turn.line }));
        return item;
      }),
    );
    $('scene-cost').textContent =
      shown.characters > 0
        ? text('costPaid', { characters: shown.characters, cached: shown.cachedLines, lines: shown.lines, seconds: shown.seconds })
        : text('costFree', { seconds: shown.seconds });
    const budgets = [];
    if (shown.budgets.member) budgets.push(text('budgetMember', shown.budgets.member));
    if (shown.budgets.guild) budgets.push(text('budgetGuild', shown.budgets.guild));
    if (budgets.length === 0) budgets.push(text('budgetNone'));
    const over = shown.budgets.left !== null && shown.characters > shown.budgets.left;
    if (over) budgets.push(text('budgetOver'));
    $('scene-budgets').replaceChildren(
      ...budgets.map((line) => {
        const item = document.createElement('li');
        item.textContent = line;
        return item;
      }),
    );
    const price = { characters: shown.characters };
    make.textContent = shown.characters > 0 ? text('make', price) : text('makeFree');
    play.textContent = shown.characters > 0 ? text('play', price) : text('playFree');
    setButtons(!over);
  }

  async function runCheck() {
    const source = script.value;
    if (source === sent) return;
    sent = source;
    const answer = await post('/check', { script: source });
    if (script.value !== source) return;
    showCheck(answer);
    clearTimeout(quoteTimer);
    if (answer.ok) quoteTimer = setTimeout(runQuote, 500);
  }

  async function runQuote() {
    const source = script.value;
    const answer = await post('/quote', { script: source, output: 'file' });
    if (script.value !== source) return;
    if (answer.error !== undefined) {
      showCheck({ ok: null, error: answer.error });
      return;
    }
    showQuote(answer.quote);
  }

  // The line numbers follow the script as it scrolls.
  script.addEventListener('scroll', () => {
    gutter.scrollTop = script.scrollTop;
  });

  script.addEventListener('input', () => {
    setButtons(false);
    clearTimeout(checkTimer);
    clearTimeout(quoteTimer);
    checkTimer = setTimeout(runCheck, 400);
  });

  // A voice changed in the cast table: written into the script's cast line (as the member would type it).
  root.addEventListener('change', (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.classList.contains('scene-voice')) return;
    const name = input.dataset.speaker;
    const voice = input.value.trim();
    if (!name || !voice) return;
    const lines = script.value.split('\\n');
    const at = lines.findIndex((line) => /^\\s*cast\\s*[:\\uff1a]/i.test(line));
    const entries = at < 0 ? [] : lines[at].replace(/^\\s*cast\\s*[:\\uff1a]/i, '').split(',').map((e) => e.trim()).filter(Boolean);
    const key = name.toLowerCase();
    const kept = entries.filter((entry) => entry.split('=')[0].trim().toLowerCase() !== key);
    const line = 'cast: ' + [...kept, name + ' = ' + voice].join(', ');
    if (at < 0) lines.unshift(line);
    else lines[at] = line;
    script.value = lines.join('\\n');
    script.dispatchEvent(new Event('input'));
  });

  async function run(path, body, done) {
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
      result.textContent = answer.error;
      return;
    }
    done(answer);
  }

  make.addEventListener('click', () => {
    if (!quote) return;
    downloads.hidden = true;
    run('/make', { script: script.value, quoted: quote.characters, format: $('scene-format').value }, (answer) => {
      $('scene-audio-link').href = answer.audio;
      $('scene-srt-link').href = answer.srt;
      downloads.hidden = false;
      result.textContent = answer.text;
      // What it cost is now in the cache: the next quote says so.
      runQuote();
    });
  });

  play.addEventListener('click', () => {
    if (!quote) return;
    run('/play', { script: script.value, quoted: quote.characters }, (answer) => {
      result.textContent = answer.text;
      runQuote();
    });
  });

  const hearOne = (event) => {
    const button = event.target;
    if (!(button instanceof HTMLButtonElement) || button.dataset.index === undefined) return;
    const body = {
      script: script.value,
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

  markLine(0);
  if (script.value.trim() !== '') runCheck();
})();
`;
