// The pupils' page: join with the code (or come back with the key this phone was given), play
// the class's machine by tapping the board, and, while the class is the machine, draw beads
// from the boxes this pupil holds.
"use strict";
const $ = id => document.getElementById(id);
// This phone's place in the lesson, kept across reloads: its key (once joined), the code, and
// a device id (what the server counts this phone's wrong codes by). Per server port: two
// classes on one laptop are two places.
const STORE = `matchbox-class-${location.port || 80}`;
const kept = JSON.parse(localStorage.getItem(STORE) || '{}');
kept.device = kept.device || Math.random().toString(36).slice(2) + Date.now().toString(36);
const keep = () => localStorage.setItem(STORE, JSON.stringify(kept));
keep();
const params = new URLSearchParams(location.search);
if (params.get('code')) kept.code = params.get('code').trim().toUpperCase();
$('code').value = kept.code || '';
let game = null, view = null, picked = null;

function path() {
  const q = new URLSearchParams({ device: kept.device, page: '1' });
  if (kept.key) q.set('key', kept.key); else q.set('code', kept.code || '');
  return `/ws?${q}`;
}

let socket = null;
function connect() {
  if (socket) { socket.again(); return; }
  socket = classSocket(path, { onMessage, onRefused });
}
function send(msg) {
  if (!socket || !socket.send(msg)) $('error').textContent = 'Not connected: it is sent when the phone is back (a moment).';
}

function onRefused(m) {
  if (m.forget) {
    // The server does not know this phone's key (a new lesson): join with the code.
    delete kept.key; keep();
    if (kept.code) { connect(); return; }
  }
  if (m.retry_in == null) {
    $('join').hidden = false; $('play').hidden = true; $('machine').hidden = true;
  }
  $('error').textContent = m.message[0].toUpperCase() + m.message.slice(1) + '.';
}

function onMessage(m) {
  $('error').textContent = '';
  if (m.type === 'welcome') {
    kept.key = m.key; keep();
    $('join').hidden = true; $('play').hidden = false; $('machine').hidden = true;
    $('who').textContent = `You are ${m.name}. You play ${m.side} in ${m.game}.`;
    $('who-machine').textContent = `You are ${m.name}.`;
    if (!m.returning) send({ type: 'start' });
    else { $('again').hidden = false; $('said').textContent = 'Welcome back.'; }
  } else if (m.type === 'game') showGame(m);
  else if (m.type === 'boxes') showBoxes(m);
  else if (m.type === 'collected') {
    // A message about the boxes still waiting for a bead to land is dropped: they are collected.
    queued = null; flying = 0;
    $('machine').hidden = true; $('play').hidden = false; send({ type: 'start' });
  } else if (m.type === 'notice') $('said').textContent = m.message[0].toUpperCase() + m.message.slice(1) + '.';
  else if (m.type === 'error') $('error').textContent = m.message;
  else if (m.type === 'ended') {
    $('said').textContent = m.message[0].toUpperCase() + m.message.slice(1) + '.';
    $('moves').replaceChildren(); $('again').hidden = true; $('draw').hidden = true;
    renderGrid(null);
  }
}

// A move's squares: `b2` (a square), `b1-b2` or `b1xa2` (a piece and where it goes).
function squares(mv) {
  const one = /^([a-z]\d+)$/.exec(mv);
  if (one) return { to: one[1] };
  const two = /^([a-z]\d+)[-x]([a-z]\d+)$/.exec(mv);
  return two ? { from: two[1], to: two[2] } : null;
}

// The board as squares to tap, from the game's diagram (`3 . X .` a rank, `  a b c` the files);
// `null` where the diagram is not such a grid (the moves are buttons then).
function grid(lines) {
  const files = (lines[lines.length - 1] || '').trim().split(/\s+/);
  const ranks = lines.slice(0, -1).map(l => /^\s*(\d+) (.*)$/.exec(l));
  if (!files.length || ranks.some(r => !r || r[2].trim().split(/\s+/).length !== files.length)) return null;
  return ranks.map(r => ({ rank: r[1], cells: r[2].trim().split(/\s+/) })).map(r => ({ ...r, files }));
}

function renderGrid(m) {
  const rows = m && grid(m.board);
  $('grid').hidden = !rows; $('text-board').hidden = !!rows;
  if (!rows) { $('text-board').textContent = m ? m.board.join('\n') : ''; $('grid').replaceChildren(); return; }
  const moves = (m.legal || []).map(mv => ({ mv, sq: squares(mv) }));
  const last = m.machine_move ? squares(m.machine_move) : null;
  const tapTo = picked ? moves.filter(x => x.sq && x.sq.from === picked) : moves.filter(x => x.sq && !x.sq.from);
  const tapFrom = picked ? [] : moves.filter(x => x.sq && x.sq.from);
  $('grid').style.gridTemplateColumns = `1.4rem repeat(${rows[0].files.length}, auto)`;
  const cells = [];
  for (const row of rows) {
    const label = document.createElement('div'); label.className = 'coord'; label.textContent = row.rank;
    cells.push(label);
    row.cells.forEach((piece, i) => {
      const name = row.files[i] + row.rank;
      const b = document.createElement('button');
      b.className = 'cell'; b.textContent = piece === '.' ? '' : piece; b.setAttribute('aria-label', name);
      const to = tapTo.find(x => x.sq.to === name), from = tapFrom.some(x => x.sq.from === name);
      if (to || from) b.classList.add('can');
      if (picked === name) b.classList.add('picked');
      if (last && (last.to === name || last.from === name)) b.classList.add('last');
      b.onclick = () => {
        if (to) { play(to.mv); return; }
        if (from) { picked = name; renderGrid(view); return; }
        if (picked) { picked = null; renderGrid(view); }
      };
      cells.push(b);
    });
  }
  const corner = document.createElement('div');
  cells.push(corner, ...rows[0].files.map(f => { const d = document.createElement('div'); d.className = 'coord'; d.textContent = f; return d; }));
  $('grid').replaceChildren(...cells);
}

function play(mv) {
  picked = null;
  $('moves').replaceChildren();
  view = { ...view, legal: [] };
  renderGrid(view);
  send({ type: 'move', game, mv });
}

function showGame(m) {
  game = m.game; view = m; picked = null;
  $('machine').hidden = true; $('play').hidden = false;
  renderGrid(m);
  // The moves as buttons too, below the board (and for boards drawn as text).
  $('moves').replaceChildren(...m.legal.map(mv => {
    const b = document.createElement('button');
    b.textContent = mv;
    b.onclick = () => play(mv);
    return b;
  }));
  const machine = m.machine_move ? `The machine played ${m.machine_move} (marked). ` : '';
  if (m.over) {
    const word = { win: 'You won!', draw: 'A draw.', loss: 'The machine won.' }[m.over.result];
    $('said').textContent = `${machine}${word} ${m.over.words[0].toUpperCase()}${m.over.words.slice(1)}.`;
    $('again').hidden = false;
  } else {
    $('said').textContent = machine + (m.legal.length ? 'Your move: tap a square.' : '');
    $('again').hidden = true;
  }
}

// The class is the machine: the pupil's boxes, their beads, and the bead to draw. The bead just
// drawn is shown leaving its box; a message that comes while it flies waits for it to land.
let flying = 0, queued = null;
function showBoxes(m) {
  const wait = flying - Date.now();
  if (wait > 0) { queued = m; setTimeout(() => { if (queued === m) { queued = null; showBoxes(m); } }, wait); return; }
  $('play').hidden = true; $('machine').hidden = false;
  $('told').textContent = m.said[0].toUpperCase() + m.said.slice(1) + '.';
  $('draw').hidden = m.waiting == null;
  if (m.waiting != null) $('draw').textContent = `draw a bead from box ${m.waiting}`;
  const d = m.drawn;
  $('boxes').replaceChildren(...m.boxes.map(b => boxCard(b, b.number === m.waiting ? 'up' : '',
    d && d.number === b.number ? d.arrow : null)));
  if (d) flying = Date.now() + 1300;
}

function joinWithCode() {
  kept.code = $('code').value.trim().toUpperCase(); delete kept.key; keep();
  $('error').textContent = '';
  connect();
}
$('go').onclick = joinWithCode;
$('code').onkeydown = e => { if (e.key === 'Enter') joinWithCode(); };
$('again').onclick = () => { $('again').hidden = true; send({ type: 'start' }); };
$('draw').onclick = () => { $('draw').hidden = true; send({ type: 'draw' }); };
// A phone that was here before comes back as itself; one with a code in its address joins.
if (kept.key || params.get('code')) connect();
