// Figures at a glance, each a link to its page; a <meter>'s optimum is none used (past nine tenths, "less good").
import type { KeyAnswer, KeyStateSnapshot } from '../../../core/api/response.ts';
import type { Membership, SeatNow } from '../dashboard-types.ts';
import type { ServerGlance } from '../glance-figures.ts';
import { formatNumber, t } from '../strings.ts';
import { html, type Html } from './markup.ts';

/** One figure: its label, its value (the link, where a page is about it), a meter when it has a limit, a detail. */
interface Figure {
  id: string;
  label: string;
  value: string;
  href?: string | undefined;
  detail?: string | undefined;
  meter?: { value: number; max: number } | undefined;
  /** Seats in voice, one line each: the bot, where it is, what it plays. */
  seats?: ReadonlyArray<{ bot: string; where: string; doing: string }> | undefined;
}

function figure(item: Figure): Html {
  const labelId = `glance-${item.id}`;
  const named = html`<span class="glance-label" id="${labelId}">${item.label}</span>
    <span class="glance-value">${item.value}</span>`;
  return html`<li class="glance-item" id="${labelId}-item">
    ${
      item.href === undefined
        ? html`<p class="glance-figure">${named}</p>`
        : html`<a class="glance-link" href="${item.href}">${named}</a>`
    }
    ${
      item.meter === undefined || item.meter.max <= 0
        ? ''
        : html`<meter
            class="glance-meter"
            min="0"
            max="${item.meter.max}"
            value="${Math.min(item.meter.value, item.meter.max)}"
            low="${Math.round(item.meter.max * 0.9)}"
            optimum="0"
            aria-labelledby="${labelId}"
          ></meter>`
    }
    ${item.detail === undefined ? '' : html`<span class="glance-detail">${item.detail}</span>`}
    ${
      item.seats === undefined
        ? ''
        : html`<ul class="glance-seats">
            ${item.seats.map(
              (seat) =>
                html`<li class="glance-seat">
                  <span class="glance-seat-bot">${seat.bot}</span>
                  <span class="glance-seat-where">${seat.where}</span>
                  <span class="glance-detail">${seat.doing}</span>
                </li>`,
            )}
          </ul>`
    }
  </li>`;
}

/** A titled row of figures (`row`: kept to one row on a laptop). */
function figures(id: string, title: string, items: readonly Figure[], row = false): Html {
  return html`<section class="glance${row ? ' glance-row' : ''}" aria-labelledby="${id}">
    <h2 id="${id}">${title}</h2>
    <ul class="glance-list">
      ${items.map(figure)}
    </ul>
  </section>`;
}

/** Spent against a limit: the detail line and the meter (none without a limit). */
function against(locale: string, spent: number, limit: number, none: string) {
  const n = (value: number) => formatNumber(locale, value);
  return limit > 0
    ? {
        detail: t(locale, 'glance.left', { left: n(Math.max(0, limit - spent)), limit: n(limit) }),
        meter: { value: spent, max: limit },
      }
    : { detail: none, meter: undefined };
}

/** Where one seat is and what it plays: "In lounge", "Speaking; 3 more waiting." */
function seatWords(locale: string, seat: SeatNow): { where: string; doing: string } {
  const channel = seat.hidden === true ? t(locale, 'glance.inVoice.someChannel') : (seat.channelName ?? seat.channelId);
  return {
    where: t(locale, seat.kind === 'in' ? 'glance.inVoice.in' : 'glance.inVoice.joining', { channel }),
    doing: seat.speaking
      ? t(locale, 'glance.inVoice.playing', { queued: formatNumber(locale, seat.waiting) })
      : t(locale, 'glance.inVoice.quiet'),
  };
}

function voiceNowFigure(locale: string, now: ServerGlance['voiceNow']): Figure {
  const base = { id: 'in-voice', label: t(locale, 'glance.inVoice') };
  switch (now.kind) {
    case 'out':
      return { ...base, value: t(locale, 'glance.inVoice.out') };
    case 'elsewhere':
      return { ...base, value: t(locale, 'glance.inVoice.unknown'), detail: t(locale, 'glance.inVoice.unknownDetail') };
    case 'seats': {
      const [only] = now.seats;
      // SayBot alone in one channel reads as it always has; helpers, or several channels, are listed seat by seat.
      if (now.seats.length === 1 && only?.main === true) {
        const { where, doing } = seatWords(locale, only);
        return { ...base, value: where, detail: doing };
      }
      return {
        ...base,
        value: t(locale, 'glance.inVoice.seats', { count: formatNumber(locale, now.seats.length) }),
        seats: now.seats.map((seat) => ({ bot: seat.bot, ...seatWords(locale, seat) })),
      };
    }
  }
}

/** A server's figures at a glance for this member (a manager's two more). */
export function serverGlancePart(locale: string, server: Membership, view: ServerGlance): Html {
  const n = (value: number) => formatNumber(locale, value);
  const base = `/servers/${server.guildId}`;
  const { guild, member } = view.report;
  const items: Figure[] = [
    {
      id: 'voice',
      label: t(locale, 'glance.voice'),
      value: view.voice ?? t(locale, 'glance.voice.none'),
      href: `${base}/myvoice`,
      detail: t(locale, view.voice === undefined ? 'glance.voice.noneDetail' : 'glance.voice.detail'),
    },
    {
      id: 'server-month',
      label: t(locale, 'glance.server'),
      value: t(locale, 'glance.characters', { count: n(guild.spent) }),
      href: `${base}/month`,
      ...against(locale, guild.spent, guild.budget, t(locale, 'glance.noMonthBudget')),
    },
    {
      id: 'member-day',
      label: t(locale, 'glance.member'),
      value: t(locale, 'glance.characters', { count: n(member.spentToday) }),
      href: `${base}/month`,
      ...against(locale, member.spentToday, member.budget, t(locale, 'glance.noDayBudget')),
    },
    {
      id: 'member-month',
      label: t(locale, 'glance.memberMonth'),
      value: t(locale, 'glance.characters', { count: n(view.memberMonth) }),
      href: `${base}/month`,
    },
    voiceNowFigure(locale, view.voiceNow),
  ];
  if (view.manager !== undefined) {
    const { budgets, autoread } = view.manager;
    const limit = (value: number) => (value > 0 ? n(value) : t(locale, 'glance.noLimit'));
    items.push(
      {
        id: 'budgets',
        label: t(locale, 'glance.budgets'),
        value: t(locale, 'glance.budgets.figure', { month: limit(budgets.guildMonthlyChars) }),
        href: `${base}/month`,
        detail: t(locale, 'glance.budgets.detail', {
          day: limit(budgets.memberDailyChars),
          seconds: n(budgets.memberCooldownSeconds),
        }),
      },
      {
        id: 'autoread',
        label: t(locale, 'dashboard.page.autoread'),
        value: t(
          locale,
          autoread.binding === undefined
            ? 'glance.autoread.never'
            : autoread.reading
              ? 'glance.autoread.reading'
              : 'glance.autoread.paused',
        ),
        href: `${base}/autoread`,
        detail:
          autoread.binding === undefined
            ? t(locale, 'glance.autoread.nowhere')
            : t(locale, 'glance.autoread.where', autoread.binding),
      },
    );
  }
  return figures('glance-title', t(locale, 'glance.title'), items);
}

/** What the owner console's summary row shows: the plan's month, the servers, the key, the cache, the free voice. */
export interface ConsoleSummary {
  plan: { used: number; limit: number; remaining: number };
  servers: { count: number; served: number };
  key: KeyStateSnapshot;
  cache: { maxBytes: number; hits: number; misses: number };
  freeThreads: number;
  freeMemoryBytes: number;
}

/** The key's latest answer, of the four the client keeps, and which it was. */
function latestAnswer(
  key: KeyStateSnapshot,
): { kind: 'accepted' | 'refused' | 'limited' | 'failed'; answer: KeyAnswer } | undefined {
  const answers = [
    ['accepted', key.lastOk],
    ['refused', key.lastRefused],
    ['limited', key.lastLimited],
    ['failed', key.lastFailed],
  ] as const;
  let latest: ReturnType<typeof latestAnswer>;
  for (const [kind, answer] of answers)
    if (answer !== undefined && (latest === undefined || answer.at.getTime() > latest.answer.at.getTime()))
      latest = { kind, answer };
  return latest;
}

/** A moment as the owner reads it in a log: UTC to the second. */
export const when = (at: Date) => `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** The owner console's first row: each figure links to its part of the console below. */
export function consoleSummaryPart(locale: string, view: ConsoleSummary): Html {
  const n = (value: number) => formatNumber(locale, value);
  const key = latestAnswer(view.key);
  const lookups = view.cache.hits + view.cache.misses;
  return figures(
    'summary-title',
    t(locale, 'glance.summary'),
    [
      {
        id: 'plan',
        label: t(locale, 'glance.plan'),
        value: t(locale, 'glance.plan.used', { used: n(view.plan.used) }),
        href: '#plan',
        detail: t(locale, 'glance.plan.left', { limit: n(view.plan.limit), left: n(view.plan.remaining) }),
        meter: { value: view.plan.used, max: view.plan.limit },
      },
      {
        id: 'servers',
        label: t(locale, 'console.servers'),
        value: n(view.servers.count),
        href: '#servers',
        detail: t(locale, 'glance.servers.served', { served: n(view.servers.served), count: n(view.servers.count) }),
      },
      {
        id: 'key',
        label: t(locale, 'glance.key'),
        value: key === undefined ? t(locale, 'glance.key.never') : t(locale, `glance.key.${key.kind}`),
        href: '#key',
        detail: key === undefined ? undefined : t(locale, 'glance.key.at', { at: when(key.answer.at) }),
      },
      {
        id: 'cache',
        label: t(locale, 'glance.cache'),
        value:
          view.cache.maxBytes === 0
            ? t(locale, 'glance.cache.off')
            : lookups === 0
              ? t(locale, 'glance.cache.none')
              : t(locale, 'glance.cache.rate', { rate: ((view.cache.hits / lookups) * 100).toFixed(1) }),
        href: '#cache',
        detail: t(locale, 'glance.cache.lookups', { lookups: n(lookups) }),
      },
      {
        id: 'free',
        label: t(locale, 'glance.free'),
        value: n(view.freeThreads),
        href: '#free-voice',
        detail: t(locale, 'glance.free.detail', { memory: (view.freeMemoryBytes / 1_048_576).toFixed(1) }),
      },
    ],
    true,
  );
}

/** The install link, where the console says to invite SayBot. */
export function installPart(locale: string, url: string): Html {
  return html`<p class="install">
    <a class="button primary" id="install-link" href="${url}">${t(locale, 'glance.install')}</a>
    <small class="hint">${t(locale, 'glance.installHelp')}</small>
  </p>`;
}
