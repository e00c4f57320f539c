// The class server's socket, for both of its pages (the pupils' phones and the projector): the
// address, the protocol's message types, reconnecting by itself with backoff after a lost
// network, a phone's sleep or a restarted server, and a banner that says so. The message types
// are checked against the server's own (a test serialises every message and looks for it here).
"use strict";

const MESSAGES = {
  // What the server sends.
  toClient: ['welcome', 'refused', 'join', 'notice', 'game', 'class', 'boxes', 'collected', 'error', 'ended'],
  // What a pupil's page sends.
  fromPupil: ['start', 'move', 'draw'],
  // What the teacher's page sends.
  fromTeacher: ['pause_joining', 'resume_joining', 'save', 'deal', 'class_game', 'collect', 'end_lesson',
    'reset', 'side', 'opponent', 'draw_for', 'tap_time'],
};

// A banner at the top of the page: the link's state ("reconnecting…", then "back").
function linkBanner() {
  let el = document.getElementById('link');
  if (!el) {
    el = document.createElement('div');
    el.id = 'link';
    el.setAttribute('role', 'status');
    el.style.cssText = 'position:fixed;top:0;left:0;right:0;padding:.4rem 1rem;font:1.1rem system-ui,sans-serif;'
      + 'text-align:center;z-index:10;display:none';
    document.body.append(el);
  }
  return (text, kind) => {
    el.textContent = text;
    el.style.display = text ? 'block' : 'none';
    el.style.background = kind === 'ok' ? '#d8f3d8' : kind === 'bad' ? '#f8d7d7' : '#fff0b3';
    el.style.color = '#141414';
  };
}

// How long a message sent while the socket is away waits for it to come back (a tap or a
// teacher's button during a moment's reconnection), and how many wait at most; older ones are
// dropped, never sent late.
const WAIT_MS = 10000, WAITING = 8;

// Opens the socket at `path()` (asked again at each try: a page may change how it joins) and
// keeps it open: `onMessage` hears every message; a refusal with `retry_in` is tried again
// then, one without is not (`onRefused` hears it); a lost connection is tried again after
// 0.5, 1, 2, 4, 8 then every 10 seconds, and at once when the page is shown again. A message
// sent meanwhile is sent once the socket is back, if that is within WAIT_MS.
function classSocket(path, { onMessage, onRefused = () => {}, onOpen = () => {} }) {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const banner = linkBanner();
  let ws = null, tries = 0, timer = null, stopped = false, lost = false, waiting = [];
  function open() {
    clearTimeout(timer);
    let refused = null;
    ws = new WebSocket(`${proto}://${location.host}${path()}`);
    ws.onopen = () => {
      tries = 0;
      onOpen();
      const fresh = waiting.filter(([, at]) => Date.now() - at < WAIT_MS);
      waiting = [];
      for (const [msg] of fresh) ws.send(JSON.stringify(msg));
    };
    ws.onmessage = e => {
      const m = JSON.parse(e.data);
      if (!MESSAGES.toClient.includes(m.type)) return;
      if (m.type === 'refused') { refused = m; return; }
      if (m.type === 'ended') stopped = true;
      if (lost && (m.type === 'welcome' || m.type === 'class')) {
        lost = false;
        banner('back: connected again', 'ok');
        setTimeout(() => { if (!lost) banner(''); }, 2500);
      }
      onMessage(m);
    };
    ws.onclose = () => {
      if (stopped) return;
      if (refused && refused.retry_in == null) {
        banner('');
        onRefused(refused);
        return;
      }
      const wait = refused ? refused.retry_in * 1000 : Math.min(10000, 500 * 2 ** tries);
      tries += 1;
      lost = true;
      banner(refused ? `${refused.message} (trying again in ${Math.round(wait / 1000)} s)` : 'reconnecting…',
        refused ? 'bad' : 'wait');
      if (refused) onRefused(refused);
      timer = setTimeout(open, wait);
    };
  }
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && !stopped && ws && ws.readyState === WebSocket.CLOSED) open();
  });
  open();
  return {
    // Sends `msg`: false where the socket is away (it is then sent when it is back, within
    // WAIT_MS, unless the lesson is over).
    send(msg) {
      if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(msg)); return true; }
      if (!stopped) waiting = [...waiting, [msg, Date.now()]].slice(-WAITING);
      return false;
    },
    // Tries again now (after the page changed how it joins: a code typed).
    again() { stopped = false; tries = 0; open(); },
    // Stops for good: the lesson is over.
    stop() { stopped = true; clearTimeout(timer); if (ws) ws.close(); },
    banner,
  };
}
