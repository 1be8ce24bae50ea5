// The studio's Scenes page; the words its script shows go in data- attributes, in the member's language.
import type { Membership } from '../dashboard-types.ts';
import { t } from '../strings.ts';
import { html, csrfField, page, type Html, type PageContext } from './layout.ts';
import { table } from './components.ts';

/** The keys the page's script fills in (data-t-<key without its prefix>). */
const SCRIPT_TEXTS = [
  'scriptOk',
  'lineError',
  'from.cast',
  'from.member',
  'from.distinct',
  'hearVoice',
  'hearVoiceFree',
  'hearLine',
  'hearLineFree',
  'costPaid',
  'costFree',
  'costNone',
  'budgetMember',
  'budgetGuild',
  'budgetNone',
  'budgetOver',
  'make',
  'makeFree',
  'play',
  'playFree',
  'working',
  'priceChanged',
  'failed',
] as const;

/** `from.cast` → `from-cast`, `scriptOk` → `script-ok`: the script reads it back as dataset.tFromCast, tScriptOk. */
const dataName = (key: string) => key.replace('.', '-').replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

export interface SavedSceneRow {
  name: string;
  savedBy: string;
}

export function scenesPage(
  context: PageContext,
  server: Membership,
  editor: { script: string; name: string; maxLength: number },
  saved: readonly SavedSceneRow[],
): Html {
  const { locale } = context;
  const base = `/servers/${server.guildId}/scenes`;
  const texts = SCRIPT_TEXTS.map((key) => html` data-t-${dataName(key)}="${t(locale, `studio.scenes.${key}`)}"`);
  const savedList =
    saved.length === 0
      ? html`<p>${t(locale, 'studio.scenes.savedNone')}</p>`
      : html`<ul>
          ${saved.map(
            (scene) =>
              html`<li>
                <a
                  href="${base}?open=${encodeURIComponent(scene.name)}"
                  aria-label="${t(locale, 'studio.scenes.open', { name: scene.name })}"
                  >${scene.name}</a
                >
                <span class="tag">${t(locale, 'studio.scenes.savedBy', { member: scene.savedBy })}</span>
              </li>`,
          )}
        </ul>`;
  return page(
    context,
    t(locale, 'studio.scenes.title', { server: server.guildName }),
    html`<link rel="stylesheet" href="/static/scenes.css" />
      <section class="card scene-help" aria-labelledby="scene-help-title">
        <p>${t(locale, 'studio.scenes.intro')}</p>
        <h2 id="scene-help-title">${t(locale, 'studio.scenes.exampleTitle')}</h2>
        <pre><code>${t(locale, 'studio.scenes.example')}</code></pre>
        <ul>
          <li><code>cast:</code> ${t(locale, 'studio.scenes.helpCast')}</li>
          <li><code>[pause 1s]</code> ${t(locale, 'studio.scenes.helpPause')}</li>
          <li><code>(whispering)</code> <code>[0.8]</code> ${t(locale, 'studio.scenes.helpTone')}</li>
        </ul>
      </section>
      <div
        id="scene-studio"
        data-base="${base}"
        data-t-too-long="${t(locale, 'scene.script.too-long-script', { max: editor.maxLength })}"
        ${texts}
      >
        <form method="post" action="${base}/save" class="stack scene-editor">
          ${csrfField(context)}
          <label for="scene-script">${t(locale, 'scene.form.script')}</label>
          <textarea
            id="scene-script"
            name="script"
            rows="14"
            spellcheck="false"
            maxlength="${editor.maxLength}"
            aria-describedby="scene-check"
            required
          >
${editor.script}</textarea>
          <p id="scene-check" class="scene-check" aria-live="polite"></p>
          <label for="scene-name">${t(locale, 'studio.scenes.name')}</label>
          <input id="scene-name" name="name" maxlength="32" value="${editor.name}" required />
          <button type="submit">${t(locale, 'studio.scenes.save')}</button>
        </form>
        <section aria-labelledby="scene-cost-title" hidden id="scene-cost-part" class="card scene-cost-bar">
          <p>
            <strong id="scene-cost-title">${t(locale, 'studio.scenes.cost')}</strong>
            <span id="scene-cost" aria-live="polite"></span>
          </p>
          <p id="scene-budgets" class="hint"></p>
          <div class="scene-actions">
            <label for="scene-format" class="hint">${t(locale, 'studio.scenes.format')}</label>
            <select id="scene-format">
              <option value="wav">WAV</option>
              <option value="mp3">MP3</option>
            </select>
            <button type="button" id="scene-make" class="small" disabled>${t(locale, 'studio.scenes.makeIdle')}</button>
            <button type="button" id="scene-play" class="small" disabled>${t(locale, 'studio.scenes.playIdle')}</button>
          </div>
          <p id="scene-result" role="status" class="hint"></p>
        </section>
        <section aria-labelledby="scene-made-title" hidden id="scene-downloads" class="card">
          <h2 id="scene-made-title">${t(locale, 'studio.scenes.madeAudio')}</h2>
          <audio id="scene-audio" controls preload="metadata" aria-labelledby="scene-made-title"></audio>
          <p class="scene-actions">
            <a id="scene-audio-link" class="button small" download>${t(locale, 'studio.scenes.downloadAudio')}</a>
            <a id="scene-srt-link" class="button small" download>${t(locale, 'studio.scenes.downloadSrt')}</a>
          </p>
        </section>
        <section aria-labelledby="scene-cast-title" hidden id="scene-cast-part" class="card">
          <h2 id="scene-cast-title">${t(locale, 'studio.scenes.cast')}</h2>
          ${table(
            [
              t(locale, 'studio.scenes.speaker'),
              t(locale, 'studio.scenes.voice'),
              t(locale, 'studio.scenes.lines'),
              t(locale, 'studio.scenes.hear'),
            ],
            '',
            { attrs: html` class="scene-cast-table stacked"`, body: html` id="scene-cast"` },
          )}
          <h2>${t(locale, 'studio.scenes.lines')}</h2>
          <ol id="scene-lines"></ol>
          <audio id="scene-line-audio" controls hidden aria-label="${t(locale, 'studio.scenes.lineAudio')}"></audio>
        </section>
      </div>
      <h2>${t(locale, 'studio.scenes.saved')}</h2>
      ${savedList}`,
    { server, current: 'scenes', scripts: ['/static/scenes.js'] },
  );
}
