// The playground page's script, served as /page.js (the policy allows scripts from this origin only, nothing
// inline). It shows what /api/state says the picked person sees, sends what they do, and plays the voice channel's
// audio as it is heard. Nothing from a message is ever parsed as HTML: every text goes in as textContent, its Markdown
// (discord-markdown.ts, whose parser is part of this script) drawn as elements.
import { parseDiscordMarkdown } from './discord-markdown.ts';

export const PAGE_SCRIPT = `'use strict';
(() => {
  const token = document.querySelector('meta[name="playground-token"]').content;
  const $ = (id) => document.getElementById(id);
  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === 'class') node.className = value;
      else if (key === 'text') node.textContent = value;
      else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children) if (child) node.append(child);
    return node;
  };
  /** Fills a node with what is given, leaving out what is not there (null or undefined: nothing drawn, no "null"). */
  const fill = (node, ...children) => node.replaceChildren(...children.filter((child) => child !== null && child !== undefined));
  const OPTION = { SUB: 1, GROUP: 2, STRING: 3, INTEGER: 4, BOOLEAN: 5, USER: 6, CHANNEL: 7, ROLE: 8, MENTIONABLE: 9, NUMBER: 10, ATTACHMENT: 11 };
  /** The newest seconds of heard audio the page keeps (24 kHz mono), for its meter and for a look at what it heard. */
  const KEEP_SECONDS = 30;
  const RATE = 24000;

  let state = null;
  let as = sessionStorage.getItem('playground-as') || '';
  let channelId = '';
  let shown = '';
  let command = null; // { def, path: [sub names], fields }
  /** The pseudo-channel of the direct messages SayBot sent the person picked. */
  const DM = 'dm';
  let modalShown = ''; // the interaction whose form is drawn
  const dismissed = new Set(); // forms the person closed, hidden at once (the page's server is told too)

  const status = (text) => { $('status').textContent = text; };
  const UNREACHABLE = "The playground's server cannot be reached: nothing you send arrives until it answers again.";
  /** Says at the top whether the page's server answers; a request that reaches it again takes the notice away. */
  function reachable(yes) {
    $('unreachable').hidden = yes;
    $('unreachable').textContent = yes ? '' : UNREACHABLE;
  }
  /** Not the page's server answering: no answer at all, or a proxy's error page in its place (no JSON error). */
  const notOurs = (response, answer) => !response || (response.status >= 500 && typeof answer.error !== 'string');
  async function post(action, body) {
    const response = await fetch('/api/' + action, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-playground-token': token },
      body: JSON.stringify({ as, ...body }),
    }).catch(() => undefined);
    const answer = response ? await response.json().catch(() => ({})) : {};
    reachable(!notOurs(response, answer));
    if (notOurs(response, answer)) throw new Error(UNREACHABLE);
    if (!response.ok) throw new Error(answer.error || response.statusText);
    return answer;
  }
  const act = (action, body, done) => post(action, body).then(() => { status(done || ''); refresh(); }, (e) => status(e.message));

  // ---- who you are ----
  const who = $('who');
  who.addEventListener('change', () => {
    as = who.value;
    sessionStorage.setItem('playground-as', as);
    shown = '';
    refresh();
  });

  // ---- state ----
  async function refresh() {
    const asked = as;
    const response = await fetch('/api/state?as=' + encodeURIComponent(asked)).catch(() => undefined);
    if (!response || !response.ok) {
      if (notOurs(response, response ? await response.clone().json().catch(() => ({})) : {})) reachable(false);
      return;
    }
    reachable(true);
    const fresh = await response.json();
    // Another person was picked meanwhile: their own refresh draws them (an answer for the one before may come last).
    if (asked !== as) return;
    state = fresh;
    if (!channelId) channelId = state.text[0].id;
    render();
  }
  setInterval(refresh, 700);

  // ---- Discord's Markdown: parsed by discord-markdown.ts, drawn here node by node (never as HTML) ----
  const parseDiscordMarkdown = ${parseDiscordMarkdown.toString()};
  /** Spoilers the person clicked open, by message and place, so that a redraw keeps them open. */
  const revealed = new Set();

  /** What a mention shows: a member's or channel's name as this server has it, as Discord's client does. */
  function mentionName(node) {
    if (node.kind === 'command') return '/' + node.id;
    if (node.kind === 'everyone' || node.kind === 'here') return '@' + node.id;
    if (node.kind === 'role') return '@unknown-role';
    if (node.kind === 'channel') {
      const channel = [...state.text, ...state.voice].find((c) => c.id === node.id);
      return channel ? '#' + channel.name : '#unknown';
    }
    const person = state.people.find((p) => p.id === node.id);
    if (person) return '@' + person.username;
    return node.id === state.saybotId ? '@SayBot' : '@unknown-user';
  }

  /** A timestamp in the reader's own time zone and language, in the style asked (Discord's t T d D f F R). */
  function timestamp(node) {
    const date = new Date(node.seconds * 1000);
    const styles = {
      t: { timeStyle: 'short' }, T: { timeStyle: 'medium' }, d: { day: '2-digit', month: '2-digit', year: 'numeric' },
      D: { dateStyle: 'long' }, f: { dateStyle: 'long', timeStyle: 'short' }, F: { dateStyle: 'full', timeStyle: 'short' },
    };
    let text;
    if (node.style === 'R') {
      const seconds = (date.getTime() - Date.now()) / 1000;
      const units = [['year', 31536000], ['month', 2592000], ['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]];
      const [unit, size] = units.find(([, size]) => Math.abs(seconds) >= size) || units[units.length - 1];
      text = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(Math.round(seconds / size), unit);
    } else text = date.toLocaleString(undefined, styles[node.style]);
    return el('time', { class: 'timestamp', datetime: date.toISOString(), title: date.toLocaleString(undefined, styles.F), text });
  }

  /** A link, http(s) only (the parser makes no other); a masked one shows its text and, on hover, where it goes. */
  function link(node, children) {
    const url = URL.canParse(node.url) ? new URL(node.url) : null;
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return el('span', {}, ...children);
    return el('a', { href: url.href, target: '_blank', rel: 'noopener noreferrer', title: node.masked ? url.href : undefined }, ...children);
  }

  /** Text as Discord shows it: its Markdown drawn (key tells its spoilers apart across redraws). */
  function markdown(text, key, tag = 'div', oneLine = false) {
    let spoilers = 0;
    const inline = (node) => {
      const children = () => node.children.map(inline);
      switch (node.type) {
        case 'text': return document.createTextNode(node.text);
        case 'strong': return el('strong', {}, ...children());
        case 'em': return el('em', {}, ...children());
        case 'underline': return el('u', {}, ...children());
        case 'strike': return el('s', {}, ...children());
        case 'code': return el('code', { class: 'inline', text: node.text });
        case 'link': return oneLine ? el('span', { class: 'link' }, ...children()) : link(node, children());
        case 'mention': return el('span', { class: 'mention', text: mentionName(node) });
        case 'timestamp': return timestamp(node);
        case 'emoji': return document.createTextNode(':' + node.name + ':');
        case 'spoiler': {
          const id = key + ':' + spoilers++;
          const hidden = el('span', {}, ...children());
          const span = el('span', { class: 'spoiler' }, hidden);
          if (revealed.has(id)) { span.classList.add('revealed'); return span; }
          if (oneLine) return span;
          // Hidden from sight and from a screen reader alike until the person opens it.
          span.setAttribute('role', 'button');
          span.setAttribute('aria-label', 'Spoiler');
          span.tabIndex = 0;
          hidden.setAttribute('aria-hidden', 'true');
          // A link it hides is no stop for Tab while hidden (a keyboard would follow it unseen).
          const links = [...hidden.querySelectorAll('a')];
          for (const a of links) a.tabIndex = -1;
          const reveal = () => {
            revealed.add(id);
            span.classList.add('revealed');
            for (const name of ['role', 'aria-label', 'tabindex']) span.removeAttribute(name);
            hidden.removeAttribute('aria-hidden');
            for (const a of links) a.removeAttribute('tabindex');
          };
          // As Discord: the first click only reveals, even on a link it hides; the link is followed once seen.
          span.addEventListener('click', (e) => {
            if (span.classList.contains('revealed')) return;
            e.preventDefault();
            reveal();
          });
          span.addEventListener('keydown', (e) => {
            if (span.classList.contains('revealed') || (e.key !== 'Enter' && e.key !== ' ')) return;
            e.preventDefault();
            reveal();
          });
          return span;
        }
      }
      return document.createTextNode('');
    };
    const block = (node) => {
      switch (node.type) {
        case 'paragraph': return el('p', {}, ...node.children.map(inline));
        case 'heading': return el('h' + (node.level + 2), { class: 'md-h' + node.level }, ...node.children.map(inline));
        case 'subtext': return el('p', { class: 'subtext' }, ...node.children.map(inline));
        case 'quote': return el('blockquote', {}, ...node.children.map(block));
        case 'list': return el(node.ordered ? 'ol' : 'ul', node.ordered && node.start !== 1 ? { start: node.start } : {},
          ...node.items.map((item) => el('li', {}, ...item.map(block))));
        case 'codeBlock': return el('pre', {}, el('code', node.language ? { class: 'language-' + node.language, text: node.text } : { text: node.text }));
      }
      return document.createTextNode('');
    };
    const blocks = parseDiscordMarkdown(String(text || ''));
    if (!oneLine) return el(tag, { class: 'content markdown' }, ...blocks.map(block));
    // A reply's line: the text on one line, its blocks run together.
    const flat = (node) => node.type === 'quote' ? node.children.flatMap(flat)
      : node.type === 'list' ? node.items.flat().flatMap(flat)
      : [node.type === 'codeBlock' ? [{ type: 'code', text: node.text }] : node.children];
    const runs = blocks.flatMap(flat).flatMap((run, i) => i === 0 ? run : [{ type: 'text', text: ' ' }, ...run]);
    return el(tag, { class: 'markdown one-line' }, ...runs.map(inline));
  }

  function render() {
    if (who.options.length === 1) for (const p of state.people) who.append(el('option', { value: p.id }));
    for (const p of state.people) {
      who.querySelector('option[value="' + p.id + '"]').textContent = p.username + ' (' + p.role + (p.member ? ')' : ', removed from the server)');
    }
    who.value = as;
    $('speech').textContent = state.speech === 'words'
      ? 'The sandbox Voice API speaks the words (eSpeak NG, the free voice) in every voice: nothing is paid, no account is used.'
      : 'The sandbox Voice API speaks test tones, one pitch a voice (install the optional espeak-ng package to hear words): nothing is paid, no account is used.';
    // SayBot stopped underneath: said at the top, and every action is refused by the page's API.
    $('stopped').hidden = !state.saybot.stopped;
    $('stopped').textContent = state.saybot.stopped ? state.saybot.stopped + '. Nothing you do here reaches it: restart the playground.' : '';
    $('dashboard').href = '/dashboard?as=' + encodeURIComponent(as) + '&token=' + encodeURIComponent(token);
    $('dashboard').hidden = !as;
    renderServer();
    renderChannels();
    writeHint();
    renderMessages();
    renderModal();
    suggestIfWaiting();
  }

  /** What happened to the server, as the person's client shows it: SayBot no longer in it, or they removed from it. */
  function renderServer() {
    const notice = $('server-notice');
    const removed = Boolean(state.me && !state.me.member);
    const gone = !state.saybot.inServer;
    const owner = Boolean(state.me && state.me.role === 'owner');
    // Drawn again when who is shown changes as well as who picked: the page draws at once when a person is picked,
    // before their state comes (an owner's Add button would otherwise never show).
    const key = JSON.stringify([as, state.me ? state.me.id : null, owner, removed, gone]);
    if (notice.dataset.key === key) return;
    notice.dataset.key = key;
    notice.hidden = !removed && !gone;
    if (removed) {
      notice.replaceChildren(el('span', { text: 'You are no longer a member of ' + state.server + ': you were removed from it. Pick someone else at the top.' }));
    } else if (gone) {
      fill(notice, el('span', { text: 'SayBot is no longer in ' + state.server + ': its commands and menus are gone, and its buttons no longer answer.' }),
        owner ? el('button', { type: 'button', text: 'Add SayBot to ' + state.server,
          onclick: () => act('invite', {}, 'You added SayBot to ' + state.server) }) : null);
    } else notice.replaceChildren();
  }

  function renderChannels() {
    const text = $('text-channels');
    const entry = (id, label) => el('li', {}, el('button', {
      type: 'button', class: 'channel', 'aria-current': id === channelId ? 'true' : 'false', text: label,
      onclick: () => { channelId = id; shown = ''; render(); },
    }));
    text.replaceChildren(...state.text.map((c) => entry(c.id, '# ' + c.name)));
    const direct = $('direct');
    direct.hidden = !as;
    direct.replaceChildren(entry(DM, '✉ Direct messages' + (state.direct.length ? ' (' + state.direct.length + ')' : '')));
    const voice = $('voice-channels');
    voice.replaceChildren(...state.voice.map((c) => {
      const here = c.members.some((m) => m.id === as);
      return el('li', { 'data-voice-channel': c.id },
        el('span', { class: 'voice-name', text: c.name }),
        el('ul', { class: 'voice-members' }, ...c.members.map((m) => el('li', { class: m.bot ? 'bot' : '', text: m.name }))),
        as && state.me && state.me.member ? el('button', {
          type: 'button', class: 'join', text: here ? 'Leave ' + c.name : 'Join ' + c.name,
          onclick: () => act('voice', { channelId: here ? null : c.id }, here ? 'You left ' + c.name : 'You joined ' + c.name),
        }) : null);
    }));
    // The voice channels to hear apart, drawn once (the choice kept across refreshes).
    const hearOf = $('listen-channel');
    if (hearOf.options.length !== state.voice.length + 1)
      hearOf.replaceChildren(el('option', { value: '', text: 'every voice channel' }),
        ...state.voice.map((c) => el('option', { value: c.id, text: c.name })));
    if (channelId === DM && !as) channelId = state.text[0].id;
    const channel = current();
    $('channel-title').textContent = channelId === DM ? '✉ Direct messages from SayBot (only you see them)'
      : '# ' + channel.name + (channel.name === 'read-aloud' ? ' (use /autoread start here, then write: SayBot reads it aloud)' : '');
  }

  /** The channel shown: a text channel, or the DMs as one (their messages, no commands there). */
  const current = () => channelId === DM ? { id: DM, name: 'direct', messages: state.direct }
    : state.text.find((c) => c.id === channelId);

  function renderMessages() {
    const channel = current();
    const outside = Boolean(state.me && !state.me.member) && channelId !== DM;
    const key = JSON.stringify([as, channelId, outside, channel.messages, menus().map((m) => m.name)]);
    if (key === shown) return;
    shown = key;
    const list = $('messages');
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    if (!as) list.replaceChildren(el('li', { class: 'empty', text: 'Pick who you are at the top to see the server as they do.' }));
    else if (outside) list.replaceChildren(el('li', { class: 'empty', text: 'You cannot see the channels of a server you are not in.' }));
    else if (channel.messages.length === 0) list.replaceChildren(el('li', { class: 'empty', text: channelId === DM
      ? 'SayBot has sent you no direct message. It writes here when a private reply outlives its interaction (15 minutes).'
      : 'No messages yet. Write one, or type / for a command.' }));
    else list.replaceChildren(...channel.messages.map(renderMessage));
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  /** The commands this person's client offers in the channel shown (none in the DMs). */
  const commandsHere = () => (state && channelId !== DM ? (current() || {}).commands || [] : []);
  const menus = () => commandsHere().filter((c) => c.type === 3);

  function renderMessage(m) {
    const item = el('li', { class: 'message' + (m.failed ? ' failed' : ''), 'data-message-id': m.id, 'data-author': m.author.name });
    if (m.interaction) item.append(el('div', { class: 'used', text: m.interaction.user + ' used ' + m.interaction.name }));
    if (m.reply) item.append(replyLine(m));
    item.append(el('span', { class: 'author' + (m.author.bot ? ' bot' : ''), text: m.author.name }));
    if (m.loading) item.append(el('div', { class: 'thinking', text: 'SayBot is thinking…' }));
    if (m.content) item.append(markdown(m.content, m.id));
    m.embeds.forEach((embed, i) => item.append(renderEmbed(embed, m.id + ':embed' + i)));
    for (const component of m.components) item.append(renderComponent(component, m));
    for (const a of m.attachments) item.append(renderAttachment(a, m.voiceMessage));
    if (m.ephemeral) item.append(el('div', { class: 'private', text: 'Only you can see this' }));
    if (menus().length > 0 && !m.ephemeral && channelId !== DM) {
      item.append(el('div', { class: 'apps' }, ...menus().map((menu) => el('button', {
        type: 'button', text: 'Apps ▸ ' + menu.name, 'data-menu': menu.name,
        onclick: () => act('menu', { name: menu.name, channelId, messageId: m.id }, 'Used ' + menu.name + ' on the message'),
      }))));
    }
    return item;
  }

  /** The line above a reply: the message it answers (its author and the start of its text); a click goes there. */
  function replyLine(m) {
    const to = m.reply;
    if (!to.author) return el('div', { class: 'replied' }, el('em', { text: to.text }));
    return el('button', { type: 'button', class: 'replied', onclick: () => {
      const target = document.querySelector('[data-message-id="' + CSS.escape(to.id) + '"]');
      if (target) target.scrollIntoView({ block: 'center' });
    } }, el('span', { class: 'replied-author', text: '@' + to.author }), markdown(to.text, m.id + ':reply', 'span', true));
  }

  function renderEmbed(embed, key) {
    const box = el('div', { class: 'embed' });
    if (typeof embed.color === 'number') box.style.borderLeftColor = '#' + embed.color.toString(16).padStart(6, '0');
    if (embed.author && embed.author.name) box.append(el('div', { class: 'field-name', text: embed.author.name }));
    if (embed.title) box.append(el('div', { class: 'title' }, markdown(embed.title, key + ':title')));
    if (embed.description) box.append(markdown(embed.description, key + ':description'));
    for (const field of embed.fields || []) {
      box.append(el('div', { class: 'field-name' }, markdown(field.name, key + ':name')), markdown(field.value, key + ':value'));
    }
    if (embed.footer && embed.footer.text) box.append(el('div', { class: 'footer', text: embed.footer.text }));
    return box;
  }

  function renderComponent(c, m) {
    if (c.type === 1) return el('div', { class: 'row' }, ...(c.components || []).map((b) => renderComponent(b, m)));
    if (c.type === 2) {
      const label = (c.emoji && c.emoji.name ? c.emoji.name + ' ' : '') + (c.label || '');
      if (c.style === 5 && c.url) return el('a', { href: c.url, target: '_blank', rel: 'noopener', text: label + ' ↗' });
      return el('button', {
        type: 'button', class: 'style-' + c.style, disabled: c.disabled === true, text: label, 'data-custom-id': c.custom_id,
        onclick: () => act('press', { messageId: m.id, customId: c.custom_id }, 'Pressed ' + label),
      });
    }
    if (c.type === 10) return markdown(c.content, m.id + ':' + (c.id ?? c.content));
    if (c.type === 14) return el('hr');
    if (c.type === 17 || c.type === 9) return el('div', { class: 'container' }, ...(c.components || []).map((x) => renderComponent(x, m)));
    return el('div', { class: 'empty', text: '(a component this page does not draw)' });
  }

  function renderAttachment(a, voiceMessage) {
    const audio = /^audio\\//.test(a.contentType || '') || /\\.(wav|mp3|ogg|opus|m4a)$/i.test(a.filename);
    if (voiceMessage) {
      return el('div', { class: 'attachment voice-message' }, el('span', { text: 'Voice message' + (a.seconds ? ' · ' + a.seconds.toFixed(1) + ' s' : '') }),
        el('audio', { controls: true, preload: 'none', src: a.url }));
    }
    // A picture is shown in the message, as Discord does, described by its alt text ("ALT" marks one that has it).
    if (/^image\\//.test(a.contentType || '') || /\\.(png|jpe?g|gif|webp)$/i.test(a.filename)) {
      return el('div', { class: 'attachment image' },
        el('a', { href: a.url, target: '_blank', rel: 'noopener' }, el('img', { src: a.url, alt: a.description || 'Image' })),
        a.description ? el('span', { class: 'alt-badge', title: a.description, 'aria-hidden': 'true', text: 'ALT' }) : null);
    }
    return el('div', { class: 'attachment' }, el('a', { class: 'name', href: a.url, download: a.filename, text: a.filename }),
      audio ? el('audio', { controls: true, preload: 'none', src: a.url }) : null);
  }

  // ---- writing and commands ----
  const input = $('input');
  const suggestions = $('suggestions');
  const form = $('command-form');
  const slashCommands = () => commandsHere().filter((c) => (c.type || 1) === 1);

  // As Discord's command picker: typing / lists the commands; Up and Down move through them, Enter or Tab picks one
  // (or a click); a picked command's options are filled in below, the first of them focused; Escape closes the list,
  // or drops the picked command, and the message box has the focus again.
  let active = -1;
  const offered = () => [...suggestions.querySelectorAll('[role="option"]')];
  function highlight(index) {
    const options = offered();
    active = options.length === 0 ? -1 : (index + options.length) % options.length;
    options.forEach((option, i) => option.setAttribute('aria-selected', i === active ? 'true' : 'false'));
    if (active >= 0) {
      input.setAttribute('aria-activedescendant', options[active].id);
      options[active].scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  }
  function closeSuggestions() {
    suggestions.replaceChildren();
    highlight(-1);
  }

  /** The commands an open list was drawn from (null: no list wanted): drawn again when the person's commands change
   * under it (their state on its way, or another person picked), as Discord's picker follows the client's commands. */
  let listedFrom = null;
  const commandNames = () => slashCommands().map((c) => c.name).join(' ');
  function suggest() {
    const text = input.value;
    closeSuggestions();
    listedFrom = null;
    if (!text.startsWith('/') || command) return;
    listedFrom = commandNames();
    const wanted = text.slice(1).split(/\\s/)[0].toLowerCase();
    for (const c of slashCommands().filter((c) => c.name.startsWith(wanted)).slice(0, 25)) {
      suggestions.append(el('button', { type: 'button', role: 'option', id: 'command-' + c.name, tabindex: '-1',
        'aria-selected': 'false', 'data-command': c.name, onclick: () => pick(c) },
        el('span', { text: '/' + c.name }), el('span', { class: 'description', text: c.description || '' })));
    }
    highlight(0);
  }
  input.addEventListener('input', suggest);
  function suggestIfWaiting() {
    if (listedFrom !== null && commandNames() !== listedFrom) suggest();
  }

  function pick(def) {
    command = { def, path: [], fields: new Map(), files: new Map() };
    closeSuggestions();
    listedFrom = null;
    input.value = '';
    input.placeholder = 'Fill in /' + def.name + "'s options, then Send (Escape to cancel)";
    drawForm(true);
  }
  function cancel() {
    command = null;
    form.hidden = true;
    form.replaceChildren();
    writeHint();
    input.focus();
  }
  /** The message box's hint: what the person can do there now (nothing until they pick who they are). */
  function writeHint() {
    if (command) return;
    input.placeholder = !as ? 'Pick who you are, then write, or type / for a command'
      : channelId === DM ? 'SayBot reads no direct messages: write in a channel'
      : 'Message #' + ((current() || {}).name || '') + ', or type / for a command (Shift+Enter for a new line)';
  }
  input.addEventListener('keydown', (e) => {
    const options = offered();
    if (options.length > 0 && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      highlight(active + (e.key === 'ArrowDown' ? 1 : -1));
    } else if (options.length > 0 && active >= 0 && (e.key === 'Enter' || e.key === 'Tab')) {
      e.preventDefault();
      options[active].click();
    } else if (e.key === 'Escape' && options.length > 0) {
      e.preventDefault();
      // Closed by the person: not listed again until they type.
      closeSuggestions();
      listedFrom = null;
    } else if (e.key === 'Escape' && command) {
      e.preventDefault();
      cancel();
    } else if (e.key === 'Escape' && listedFrom !== null) {
      // Closed before it opened (the person's commands still on their way): not listed when they come.
      e.preventDefault();
      listedFrom = null;
    } else if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      // As Discord's message box: Enter sends, Shift+Enter makes a new line (and Enter while an IME composes is its).
      e.preventDefault();
      $('composer').requestSubmit();
    }
  });
  form.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !command) return;
    // A field's own list (autocomplete choices) closes first, as the browser does; the next Escape drops the command.
    e.preventDefault();
    cancel();
  });

  /** The option list the chosen path (sub-command group, sub-command) leads to. */
  function leaf() {
    let options = command.def.options || [];
    for (const name of command.path) options = (options.find((o) => o.name === name) || {}).options || [];
    return options;
  }

  /** Draws the picked command's sub-commands and options; \`focusNext\`: the first not filled in gets the focus. */
  function drawForm(focusNext = false) {
    form.hidden = false;
    if (focusNext) queueMicrotask(() => {
      const next = [...form.querySelectorAll('[data-sub], [data-option]')].find((c) => c.type === 'file' || !c.value);
      (next || input).focus();
    });
    const parts = [el('span', { class: 'command-name', text: '/' + command.def.name })];
    let options = command.def.options || [];
    let depth = 0;
    while (options.some((o) => o.type === OPTION.SUB || o.type === OPTION.GROUP)) {
      const level = depth;
      const select = el('select', { 'aria-label': 'sub-command', 'data-sub': String(level), onchange: () => {
        command.path = command.path.slice(0, level).concat(select.value ? [select.value] : []);
        drawForm(true);
      } }, el('option', { value: '', text: 'choose…' }), ...options.map((o) => el('option', { value: o.name, text: o.name })));
      select.value = command.path[level] || '';
      parts.push(select);
      if (!command.path[level]) { form.replaceChildren(...parts); return; }
      options = (options.find((o) => o.name === command.path[level]) || {}).options || [];
      depth++;
    }
    command.fields = new Map();
    for (const option of options) parts.push(field(option));
    parts.push(el('button', { type: 'button', text: 'Cancel', onclick: cancel }));
    form.replaceChildren(...parts);
  }

  function field(option) {
    let control;
    const people = state.people.map((p) => el('option', { value: p.id, text: p.username }));
    if (option.choices && option.choices.length) {
      control = el('select', {}, el('option', { value: '', text: '' }), ...option.choices.map((c) => el('option', { value: String(c.value), text: c.name })));
    } else if (option.type === OPTION.BOOLEAN) {
      control = el('select', {}, el('option', { value: '', text: '' }), el('option', { value: 'true', text: 'True' }), el('option', { value: 'false', text: 'False' }));
    } else if (option.type === OPTION.USER || option.type === OPTION.MENTIONABLE) {
      control = el('select', {}, el('option', { value: '', text: '' }), ...people);
    } else if (option.type === OPTION.CHANNEL) {
      control = el('select', {}, el('option', { value: '', text: '' }),
        ...state.text.map((c) => el('option', { value: c.id, text: '#' + c.name })),
        ...state.voice.map((c) => el('option', { value: c.id, text: c.name + ' (voice)' })));
    } else if (option.type === OPTION.ATTACHMENT) {
      control = el('input', { type: 'file' });
      control.addEventListener('change', () => {
        const file = control.files[0];
        if (!file) return command.files.delete(option.name);
        const reader = new FileReader();
        reader.onload = () => command.files.set(option.name, { option: option.name, filename: file.name, contentType: file.type,
          base64: String(reader.result).split(',')[1] || '' });
        reader.readAsDataURL(file);
      });
    } else {
      control = el('input', { type: option.type === OPTION.STRING ? 'text' : 'number', step: option.type === OPTION.INTEGER ? '1' : 'any' });
      if (option.autocomplete) {
        const list = el('datalist', { id: 'choices-' + option.name });
        control.setAttribute('list', list.id);
        let timer;
        control.addEventListener('input', () => {
          clearTimeout(timer);
          // Its choices are for what was typed before: the answer to this is on its way.
          delete list.dataset.for;
          timer = setTimeout(() => complete(option, control, list), 250);
        });
        control.addEventListener('focus', () => complete(option, control, list));
        limit(option, control);
        control.dataset.option = option.name;
        command.fields.set(option.name, { option, control });
        return el('label', { class: option.required ? 'required' : '' }, el('span', { text: option.name }), control, list);
      }
    }
    limit(option, control);
    control.dataset.option = option.name;
    command.fields.set(option.name, { option, control });
    return el('label', { class: option.required ? 'required' : '', title: option.description || '' }, el('span', { text: option.name }), control);
  }

  /**
   * The option's declared bounds on its field, as Discord's client holds them: required, a string's min/max length,
   * a number's min/max; the browser then refuses to send the form, and the status line says which field and why.
   */
  function limit(option, control) {
    if (option.required && option.type !== OPTION.ATTACHMENT) control.required = true;
    if (option.type === OPTION.STRING && !(option.choices && option.choices.length)) {
      if (typeof option.min_length === 'number') control.minLength = option.min_length;
      if (typeof option.max_length === 'number') control.maxLength = option.max_length;
    }
    if (option.type === OPTION.INTEGER || option.type === OPTION.NUMBER) {
      if (typeof option.min_value === 'number') control.min = String(option.min_value);
      if (typeof option.max_value === 'number') control.max = String(option.max_value);
    }
    control.addEventListener('invalid', () => status(option.name + ': ' + control.validationMessage));
  }

  /** The options as the command is filled in now, nested under its sub-commands; \`focused\` marks one. */
  function filled(focused) {
    let options = [];
    for (const [name, { option, control }] of command.fields) {
      if (option.type === OPTION.ATTACHMENT) continue;
      const raw = control.value;
      if (raw === '' && name !== focused) continue;
      const value = option.type === OPTION.INTEGER ? parseInt(raw, 10) : option.type === OPTION.NUMBER ? parseFloat(raw)
        : option.type === OPTION.BOOLEAN ? raw === 'true' : raw;
      if (name !== focused && typeof value === 'number' && Number.isNaN(value)) continue;
      options.push({ name, type: option.type, value: name === focused ? String(raw) : value, ...(name === focused ? { focused: true } : {}) });
    }
    const path = command.path.slice();
    const all = command.def.options || [];
    for (let i = path.length - 1; i >= 0; i--) {
      let level = all;
      for (const name of path.slice(0, i)) level = (level.find((o) => o.name === name) || {}).options || [];
      const sub = level.find((o) => o.name === path[i]);
      options = [{ name: path[i], type: sub ? sub.type : OPTION.SUB, options }];
    }
    return options;
  }

  /** The field still in the form of the command being filled in (the command may be sent or dropped meanwhile). */
  const stillShown = (option, control) => Boolean(command && (command.fields.get(option.name) || {}).control === control);

  /**
   * Asks SayBot for the field's choices and lists the answer to the newest question only (an earlier one may come
   * last); one that failed lists none, as Discord's client does. The list's data-for says what it answers.
   */
  async function complete(option, control, list) {
    // A field's wait for the last key may end after its command was sent or dropped: nothing is asked then.
    if (!stillShown(option, control)) return;
    const typed = control.value;
    const asked = (list.dataset.asked = String(Number(list.dataset.asked || 0) + 1));
    let choices = [];
    try {
      ({ choices } = await post('autocomplete', { channelId, name: command.def.name, options: filled(option.name) }));
    } catch (e) { if (stillShown(option, control)) status('Autocomplete: ' + e.message); }
    if (list.dataset.asked !== asked) return;
    list.replaceChildren(...choices.map((c) => el('option', { value: String(c.value), label: c.name, text: c.name })));
    list.dataset.for = typed;
  }

  /** A message or command under way: Send waits for its answer, as Discord's client does (one press, one send). */
  let pending = false;
  function sending(promise) {
    pending = true;
    $('send').disabled = true;
    const done = () => { pending = false; $('send').disabled = false; };
    return promise.then((value) => { done(); return value; }, (error) => { done(); throw error; });
  }

  $('composer').addEventListener('submit', (e) => {
    e.preventDefault();
    if (pending) return;
    if (!as) return status('Pick who you are first.');
    if (channelId === DM) return status('SayBot reads no direct messages: write in a channel.');
    if (command) {
      const missing = leaf().filter((o) => o.required && o.type !== OPTION.SUB && o.type !== OPTION.GROUP)
        .filter((o) => o.type === OPTION.ATTACHMENT ? !command.files.has(o.name) : !(command.fields.get(o.name) || {}).control?.value);
      if (missing.length) return status('Fill in ' + missing.map((o) => o.name).join(', '));
      if ((command.def.options || []).some((o) => o.type === OPTION.SUB || o.type === OPTION.GROUP) && leaf() === command.def.options) return status('Choose a sub-command');
      const name = command.def.name;
      sending(post('command', { channelId, name, options: filled(undefined), attachments: [...command.files.values()] }))
        .then(() => { status('You used /' + name); cancel(); refresh(); }, (err) => status(err.message));
      return;
    }
    const text = input.value.trim();
    if (!text) return;
    if (text.startsWith('/')) {
      const def = slashCommands().find((c) => c.name === text.slice(1).split(/\\s/)[0]);
      if (def) return pick(def);
      return status('No such command: ' + text);
    }
    // The text stays in the box until it is sent: a send that fails loses nothing (cleared only if not edited since).
    sending(post('post', { channelId, content: text })).then(() => {
      if (input.value.trim() === text) input.value = '';
      status('');
      refresh();
    }, (err) => status(err.message));
  });

  // ---- a form SayBot answers with (a modal) ----
  const layer = $('modal-layer');

  function renderModal() {
    const modal = state.modal && !dismissed.has(state.modal.interactionId) ? state.modal : null;
    if (!modal) {
      if (modalShown) { layer.hidden = true; layer.replaceChildren(); modalShown = ''; }
      return;
    }
    if (modal.interactionId === modalShown) return;
    modalShown = modal.interactionId;
    const fields = [];
    const body = (modal.components || []).map((c) => {
      if (c.type === 10) return markdown(c.content, modal.interactionId);
      if (c.type !== 18 || !c.component) return el('p', { class: 'empty', text: '(a part of the form this page does not draw)' });
      const f = c.component;
      let control;
      if (f.type === 4) {
        control = el(f.style === 2 ? 'textarea' : 'input', { required: f.required !== false, minlength: f.min_length,
          maxlength: f.max_length, placeholder: f.placeholder, rows: f.style === 2 ? 6 : undefined });
        if (f.value) control.value = f.value;
        fields.push({ id: f.custom_id, read: async () => control.value });
      } else if (f.type === 23) {
        control = el('input', { type: 'checkbox', checked: f.default === true });
        fields.push({ id: f.custom_id, read: async () => control.checked });
      } else if (f.type === 19) {
        control = el('input', { type: 'file', multiple: (f.max_values || 1) > 1, required: f.required !== false });
        fields.push({ id: f.custom_id, read: () => Promise.all([...control.files].map(upload)) });
      } else return el('p', { class: 'empty', text: '(a field this page does not draw)' });
      control.dataset.field = f.custom_id;
      return el('label', { class: 'field' }, el('span', { text: c.label || '' }),
        c.description ? el('small', { text: c.description }) : null, control);
    });
    const dialog = el('form', { class: 'modal', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'modal-title',
      'data-interaction-id': modal.interactionId },
      el('h2', { id: 'modal-title', text: modal.title || '' }), ...body,
      el('div', { class: 'modal-buttons' },
        el('button', { type: 'button', text: 'Cancel', onclick: () => close() }),
        el('button', { type: 'submit', class: 'primary', text: 'Submit' })));
    // Cancel, or Escape as in Discord's forms: the form is dropped and the message box has the focus again.
    function close() {
      dismissed.add(modal.interactionId);
      // Remembered by the page's server too, so that a reload does not bring the form back.
      post('dismiss', { interactionId: modal.interactionId }).catch(() => undefined);
      renderModal();
      input.focus();
    }
    dialog.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      close();
    });
    dialog.addEventListener('submit', async (e) => {
      e.preventDefault();
      const values = {};
      for (const field of fields) values[field.id] = await field.read();
      post('modal', { interactionId: modal.interactionId, values }).then(() => {
        dismissed.add(modal.interactionId);
        status('You sent the form ' + (modal.title || ''));
        renderModal();
        refresh();
      }, (err) => status(err.message));
    });
    layer.replaceChildren(dialog);
    layer.hidden = false;
    const first = dialog.querySelector('textarea, input');
    if (first) first.focus();
  }

  const upload = (file) => new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve({ filename: file.name, contentType: file.type, base64: String(reader.result).split(',')[1] || '' });
    reader.readAsDataURL(file);
  });

  // ---- hearing the voice channel ----
  const heard = new Float32Array(KEEP_SECONDS * RATE);
  let heardAt = 0; // samples written in all
  let context = null;
  let source = null;
  let playAt = 0;
  const listenButton = $('listen');
  const listenChannel = $('listen-channel');
  /** Hears the channel chosen (each voice channel apart; none chosen: every one), from now. */
  const connect = () => {
    const channel = listenChannel.value;
    source = new EventSource('/api/audio' + (channel ? '?channel=' + encodeURIComponent(channel) : ''));
    source.onmessage = (event) => hear(event.data);
  };
  listenChannel.addEventListener('change', () => {
    if (!source) return;
    source.close();
    connect();
  });
  listenButton.addEventListener('click', () => {
    if (source) {
      source.close();
      source = null;
      listenButton.setAttribute('aria-pressed', 'false');
      listenButton.textContent = 'Listen to the voice channel';
      return;
    }
    context = context || new AudioContext();
    void context.resume();
    connect();
    listenButton.setAttribute('aria-pressed', 'true');
    listenButton.textContent = 'Listening (click to stop)';
  });

  function hear(base64) {
    const bytes = Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
    const pcm = new Int16Array(bytes.buffer, 0, bytes.length >> 1);
    if (pcm.length === 0) return;
    const buffer = context.createBuffer(1, pcm.length, RATE);
    const channel = buffer.getChannelData(0);
    for (let i = 0; i < pcm.length; i++) {
      channel[i] = pcm[i] / 32768;
      heard[(heardAt + i) % heard.length] = channel[i];
    }
    heardAt += pcm.length;
    const hearing = $('hearing');
    hearing.dataset.heardSeconds = (heardAt / RATE).toFixed(2);
    hearing.textContent = 'heard ' + (heardAt / RATE).toFixed(1) + ' s';
    // Played in order, a little behind; a page far behind (a stall) skips ahead rather than queueing without end.
    const now = context.currentTime;
    if (playAt < now + 0.05 || playAt > now + 2) playAt = now + 0.1;
    const node = context.createBufferSource();
    node.buffer = buffer;
    node.connect(context.destination);
    node.start(playAt);
    playAt += buffer.duration;
  }

  /** What the page heard: the newest \`seconds\` (at most KEEP_SECONDS) of it, 24 kHz mono, for a look from outside. */
  window.playground = {
    heardSamples(seconds = KEEP_SECONDS) {
      const count = Math.min(heardAt, heard.length, Math.round(seconds * RATE));
      const out = new Array(count);
      for (let i = 0; i < count; i++) out[i] = heard[(heardAt - count + i) % heard.length];
      return out;
    },
    heardSeconds: () => heardAt / RATE,
  };

  refresh();
})();
`;
