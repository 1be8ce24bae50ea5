// The playground page's stylesheet, served as /page.css (the policy allows no inline style): Discord's dark look.
export const PAGE_STYLE = `:root { color-scheme: dark; --bg: #313338; --side: #2b2d31; --top: #1e1f22; --text: #dbdee1;
  --muted: #949ba4; --accent: #5865f2; --green: #248046; --danger: #da373c; font-family: system-ui, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); }
.top { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; padding: .5rem 1rem; background: var(--top); }
.top h1 { font-size: 1.1rem; margin: 0 1rem 0 0; }
.speech { margin: 0; padding: .25rem 1rem; background: var(--side); color: var(--muted); font-size: .85rem; }
select, input, button, textarea { font: inherit; color: var(--text); background: #1e1f22; border: 1px solid #444;
  border-radius: 4px; padding: .3rem .5rem; }
button { cursor: pointer; background: #4e5058; border: none; }
button.primary, #send { background: var(--accent); color: #fff; }
button[aria-pressed="true"] { background: var(--green); }
a { color: #00a8fc; }
.dashboard { margin-left: auto; }
.hearing { color: var(--muted); font-size: .85rem; min-width: 8rem; }
.layout { display: grid; grid-template-columns: 15rem 1fr; height: calc(100vh - 5.5rem); }
.channels { background: var(--side); padding: .5rem; overflow-y: auto; }
.channels h2 { font-size: .75rem; text-transform: uppercase; color: var(--muted); margin: 1rem .25rem .25rem; }
.channels ul { list-style: none; margin: 0; padding: 0; }
.channels li button.channel { width: 100%; text-align: left; background: none; color: var(--muted); }
.channels li button.channel[aria-current="true"] { background: #404249; color: #fff; }
.voice-name::before { content: "\\25B6  "; color: var(--muted); font-size: .7rem; }
.voice-members { list-style: none; padding-left: 1.5rem; color: var(--muted); font-size: .9rem; }
.voice-members .bot::after { content: " BOT"; font-size: .65rem; background: var(--accent); color: #fff;
  border-radius: 3px; padding: 0 .2rem; margin-left: .3rem; }
.join { margin: .25rem 0 0 1.5rem; font-size: .85rem; }
.chat { display: flex; flex-direction: column; min-height: 0; }
.chat h2 { margin: 0; padding: .6rem 1rem; border-bottom: 1px solid #1f2023; font-size: 1rem; }
.messages { flex: 1; overflow-y: auto; list-style: none; margin: 0; padding: .5rem 1rem; }
.message { padding: .4rem .5rem; border-radius: 4px; position: relative; }
.message:hover { background: #2e3035; }
.message .used { color: var(--muted); font-size: .8rem; }
.message .replied { display: flex; gap: .3rem; align-items: baseline; max-width: 100%; background: none; padding: 0;
  color: var(--muted); font-size: .8rem; text-align: left; overflow: hidden; white-space: nowrap; }
.message .replied::before { content: "\\256D"; color: #4e5058; }
.message .replied-author { color: #f2f3f5; font-weight: 600; }
.message .one-line { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.attachment.image { position: relative; display: inline-block; max-width: 100%; }
.attachment.image img { display: block; max-width: min(100%, 25rem); max-height: 20rem; border-radius: 8px; }
.alt-badge { position: absolute; left: .4rem; bottom: .4rem; background: rgb(0 0 0 / .75); color: #fff;
  font-size: .65rem; font-weight: 700; border-radius: 3px; padding: 0 .3rem; }
.message .author { font-weight: 600; color: #fff; }
.message .author.bot::after { content: "APP"; font-size: .65rem; background: var(--accent); color: #fff;
  border-radius: 3px; padding: 0 .25rem; margin-left: .35rem; vertical-align: middle; }
.message .content { white-space: pre-wrap; word-break: break-word; }
/* Discord's Markdown (page-script.ts draws it). */
.markdown p { margin: 0; }
.markdown h3, .markdown h4, .markdown h5 { margin: .4rem 0 .2rem; color: #f2f3f5; line-height: 1.3; }
.markdown .md-h1 { font-size: 1.5rem; }
.markdown .md-h2 { font-size: 1.25rem; }
.markdown .md-h3 { font-size: 1rem; }
.markdown .subtext { font-size: .75rem; color: var(--muted); }
.markdown blockquote { margin: .2rem 0; padding-left: .75rem; border-left: 4px solid #4e5058; }
.markdown ul, .markdown ol { margin: .2rem 0; padding-left: 1.5rem; white-space: normal; }
.markdown code.inline { background: #1e1f22; border-radius: 3px; padding: 0 .2rem; font-size: .85em; }
.markdown pre { background: #2b2d31; border: 1px solid #1e1f22; border-radius: 4px; padding: .5rem; margin: .3rem 0;
  white-space: pre-wrap; max-width: 100%; overflow-x: auto; }
.markdown .mention { background: rgb(88 101 242 / .3); color: #c9cdfb; border-radius: 3px; padding: 0 .15rem; }
.markdown .timestamp { background: rgb(255 255 255 / .06); border-radius: 3px; padding: 0 .15rem; }
.markdown .spoiler { background: #1e1f22; color: transparent; border-radius: 3px; cursor: pointer; }
.markdown .spoiler.revealed { background: rgb(255 255 255 / .1); color: inherit; cursor: auto; }
/* A link on a revealed spoiler's lighter ground: a lighter blue, so that it still reads (4.5:1 at least). */
.markdown .spoiler.revealed a { color: #8ccfff; }
.markdown .spoiler:not(.revealed) * { color: transparent; }
/* Hidden, its words take their room and nothing else: not seen, not clicked, not read as the button's own text. */
.markdown .spoiler:not(.revealed) > span { visibility: hidden; }
.message .private { color: var(--muted); font-size: .8rem; font-style: italic; }
.message .thinking { color: var(--muted); font-style: italic; }
.message .apps { position: absolute; top: .3rem; right: .5rem; display: none; gap: .25rem; }
.message:hover .apps, .message:focus-within .apps { display: flex; }
.apps button { font-size: .75rem; padding: .1rem .4rem; }
.embed { border-left: 4px solid #1e1f22; background: #2b2d31; border-radius: 4px; padding: .5rem .75rem;
  margin: .3rem 0; max-width: 32rem; }
.embed .title { font-weight: 600; }
.embed .field-name { font-weight: 600; font-size: .85rem; margin-top: .3rem; }
.embed .footer { color: var(--muted); font-size: .75rem; margin-top: .3rem; }
.row { display: flex; gap: .4rem; flex-wrap: wrap; margin: .3rem 0; }
.row button { font-size: .85rem; }
/* Discord writes white on its coloured buttons: the page's grey text is under 4.5:1 there. */
.row button.style-1 { background: var(--accent); color: #fff; }
.row button.style-3 { background: var(--green); color: #fff; }
.row button.style-4 { background: var(--danger); color: #fff; }
.row button:disabled { opacity: .5; cursor: not-allowed; }
.container { border-left: 4px solid #4e5058; background: #2b2d31; border-radius: 4px; padding: .5rem .75rem; margin: .3rem 0; }
.attachment { margin: .3rem 0; }
.attachment .name { font-size: .85rem; color: var(--muted); display: block; }
.voice-message { background: #2b2d31; border-radius: 1rem; padding: .3rem .6rem; display: inline-flex; gap: .5rem;
  align-items: center; }
.composer { position: relative; display: flex; gap: .5rem; flex-wrap: wrap; padding: .5rem 1rem; }
.composer #input { flex: 1; min-width: 12rem; resize: none; field-sizing: content; max-height: 40vh; line-height: 1.4; }
.suggestions { position: absolute; bottom: 100%; left: 1rem; right: 1rem; background: #2b2d31; border-radius: 4px;
  max-height: 16rem; overflow-y: auto; }
.suggestions button { display: block; width: 100%; text-align: left; background: none; }
.suggestions button:hover, .suggestions button:focus { background: #404249; }
.suggestions .description { color: var(--muted); margin-left: .5rem; font-size: .85rem; }
.command-form { width: 100%; display: flex; flex-wrap: wrap; gap: .5rem; background: #2b2d31; padding: .5rem;
  border-radius: 4px; }
.command-form .command-name { font-weight: 600; align-self: center; }
.command-form[hidden] { display: none; }
.command-form label { display: flex; flex-direction: column; font-size: .75rem; color: var(--muted); }
.command-form label.required > span::after { content: " *"; color: var(--danger); }
.message.failed .content { color: #ff9b9e; }
.server-notice { margin: 0; padding: .5rem 1rem; background: #2b2d31; border-bottom: 1px solid #1f2023;
  display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
.server-notice[hidden] { display: none; }
.stopped { margin: 0; padding: .5rem 1rem; background: var(--danger); color: #fff; font-weight: 600; }
.status { margin: 0 1rem .5rem; color: var(--muted); font-size: .85rem; min-height: 1.2em; }
.empty { color: var(--muted); }
#direct { margin-top: .5rem; }
.modal-layer { position: fixed; inset: 0; background: rgb(0 0 0 / .6); display: grid; place-items: center; }
.modal-layer[hidden] { display: none; }
.modal { background: var(--bg); border-radius: 8px; padding: 1rem; width: min(32rem, 95vw); max-height: 90vh;
  overflow-y: auto; display: flex; flex-direction: column; gap: .6rem; }
.modal h2 { margin: 0; font-size: 1.1rem; }
.modal .field { display: flex; flex-direction: column; gap: .2rem; font-size: .85rem; font-weight: 600; }
.modal .field small { color: var(--muted); font-weight: normal; }
.modal .content { white-space: pre-wrap; color: var(--muted); font-size: .85rem; margin: 0; }
.modal-buttons { display: flex; justify-content: flex-end; gap: .5rem; }
/* A phone: the channels above the chat, nothing wider than the screen. */
@media (max-width: 40rem) {
  .layout { grid-template-columns: minmax(0, 1fr); height: auto; }
  .layout > * { min-width: 0; }
  .composer #input { min-width: 0; }
}
`;
