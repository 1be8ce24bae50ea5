// The managers' auto-read page: where it reads, its settings, the voice pool, the members' voices, the ignore list.
import type { SettingDeclaration } from '../../../core/settings/setting-types.ts';
import type { Membership } from '../dashboard-types.ts';
import { t, type MessageKey } from '../strings.ts';
import { autosave, inline } from './components.ts';
import { buttonForm, csrfField, html, page, type Html, type PageContext } from './layout.ts';
import { field } from './member-pages.ts';

export interface AutoreadView {
  /** Each binding kept, reading or not: its channels by name where SayBot knows them. */
  bindings: ReadonlyArray<{ voiceChannelId: string; reading: boolean; text: string; voice: string }>;
  /** The settings in words, as /autoread settings prints them. */
  current: string;
  settings: ReadonlyArray<readonly [string, SettingDeclaration]>;
  /** Each setting as it stands, by name (its default where the server never set it). */
  values: Readonly<Record<string, unknown>>;
  /** /autoread show's lines on the pool, the members' voices and the ignored. */
  members: readonly string[];
  pool: ReadonlyArray<{ voice: string; label: string }>;
  ignored: ReadonlyArray<{ id: string; name: string }>;
}

export function autoreadPage(context: PageContext, server: Membership, view: AutoreadView): Html {
  const { locale } = context;
  const base = `/servers/${server.guildId}/autoread`;
  const where =
    view.bindings.length === 0
      ? html`<p>${t(locale, 'dashboard.autoread.never')}</p>`
      : html`<ul>
          ${view.bindings.map(
            (binding) =>
              html`<li>
                ${t(locale, binding.reading ? 'dashboard.autoread.reading' : 'dashboard.autoread.paused', {
                  text: binding.text,
                  voice: binding.voice,
                })}
                ${
                  binding.reading
                    ? buttonForm(
                        context,
                        `${base}/stop`,
                        { voiceChannel: binding.voiceChannelId },
                        t(locale, 'dashboard.autoread.stop', { voice: binding.voice }),
                      )
                    : ''
                }
              </li>`,
          )}
        </ul>`;
  return page(
    context,
    `${t(locale, 'dashboard.page.autoread')} · ${server.guildName}`,
    html`<section class="card" id="autoread-now" data-refresh>
        ${where}
        <p>${t(locale, 'dashboard.autoread.now', { settings: view.current })}</p>
      </section>
      <form
        method="post"
        action="${base}/settings"
        class="card"
        ${inline}
        ${autosave}
        aria-labelledby="autoread-settings"
      >
        <h2 id="autoread-settings">${t(locale, 'dashboard.autoread.settings')}</h2>
        <p class="hint">${t(locale, 'dashboard.autoread.settingsHelp')}</p>
        ${csrfField(context)}
        <div class="settings-grid">
          ${view.settings
            .filter(([, declared]) => declared.kind !== 'role')
            .map(
              ([name, declared]) =>
                html`<div class="field setting">
                  ${field(
                    locale,
                    name,
                    declared,
                    [],
                    view.values[name],
                    t(locale, `option.${declared.option}.description` as MessageKey),
                  )}
                </div>`,
            )}
        </div>
        <button type="submit">${t(locale, 'dashboard.autoread.save')}</button>
      </form>
      <h2>${t(locale, 'dashboard.autoread.members')}</h2>
      <ul>
        ${view.members.map((line) => html`<li>${line}</li>`)}
      </ul>
      <h2>${t(locale, 'dashboard.autoread.pool')}</h2>
      ${
        view.pool.length === 0
          ? html`<p>${t(locale, 'dashboard.autoread.poolDefault')}</p>`
          : html`<ul>
              ${view.pool.map(
                (entry) =>
                  html`<li>
                    ${entry.label}
                    ${buttonForm(context, `${base}/pool/remove`, { voice: entry.voice }, t(locale, 'dashboard.autoread.poolRemove', { voice: entry.label }))}
                  </li>`,
              )}
            </ul>`
      }
      <p><a href="/servers/${server.guildId}/voices">${t(locale, 'dashboard.autoread.poolAdd')}</a></p>
      <h2>${t(locale, 'dashboard.autoread.ignoredTitle')}</h2>
      ${
        view.ignored.length === 0
          ? html`<p>${t(locale, 'autoread.show.ignoredNone')}</p>`
          : html`<ul>
              ${view.ignored.map(
                (member) =>
                  html`<li>
                    ${member.name}
                    ${buttonForm(context, `${base}/unignore`, { member: member.id }, t(locale, 'dashboard.autoread.unignore', { name: member.name }))}
                  </li>`,
              )}
            </ul>`
      }
      <form method="post" action="${base}/ignore" class="search">
        ${csrfField(context)}
        <label for="ignore-member">${t(locale, 'dashboard.autoread.ignoreMember')}</label>
        <input id="ignore-member" name="member" inputmode="numeric" pattern="[0-9]{17,20}" required />
        <button type="submit">${t(locale, 'dashboard.autoread.ignore')}</button>
      </form>`,
    { server, current: 'autoread' },
  );
}
