// The playground's one page: its frame, filled in by page-script.ts from /api/state. Served with a strict policy
// (web.ts): the script and stylesheet of this origin, nothing inline, no other origin at all.

/** The page, carrying the token its requests must send back (web.ts checks it on every change). */
export function PAGE_HTML(token: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="playground-token" content="${token}">
<title>SayBot playground</title>
<link rel="stylesheet" href="/page.css">
<script src="/page.js" defer></script>
</head>
<body>
<header class="top">
  <h1>SayBot playground</h1>
  <label class="who">You are
    <select id="who" aria-label="Who you are"><option value="">pick someone…</option></select>
  </label>
  <label class="who">Hear
    <select id="listen-channel" aria-label="Voice channel to hear"><option value="">every voice channel</option></select>
  </label>
  <button id="listen" type="button" aria-pressed="false">Listen to the voice channel</button>
  <span id="hearing" class="hearing" aria-live="polite" data-heard-seconds="0"></span>
  <a id="dashboard" class="dashboard" href="/dashboard" target="_blank" rel="noopener">Open the dashboard</a>
</header>
<p id="speech" class="speech"></p>
<p id="stopped" class="stopped" role="alert" hidden></p>
<p id="unreachable" class="stopped" role="alert" hidden></p>
<div class="layout">
  <nav class="channels" aria-label="Channels">
    <h2>Text channels</h2>
    <ul id="text-channels"></ul>
    <ul id="direct" hidden></ul>
    <h2>Voice channels</h2>
    <ul id="voice-channels"></ul>
  </nav>
  <main class="chat">
    <h2 id="channel-title"># general</h2>
    <div id="server-notice" class="server-notice" role="status" hidden></div>
    <ol id="messages" class="messages" aria-live="polite"></ol>
    <form id="composer" class="composer" autocomplete="off">
      <div id="suggestions" class="suggestions" role="listbox" aria-label="Commands"></div>
      <div id="command-form" class="command-form" hidden></div>
      <textarea id="input" rows="1" aria-label="Message or slash command" placeholder="Pick who you are, then write, or type / for a command"></textarea>
      <button id="send" type="submit">Send</button>
    </form>
    <p id="status" class="status" role="status"></p>
  </main>
</div>
<div id="modal-layer" class="modal-layer" hidden></div>
</body>
</html>`;
}
