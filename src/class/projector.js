// The projector's page: how to join, the class's score, the machine's learning curve, the
// pupils, the whole machine, and the teacher's controls — sized to the screen (1280×720 to
// 1920×1080) with nothing below the fold.
"use strict";
const $ = id => document.getElementById(id);
let joining = true, machineSide = 'first', opponent = 'perfect', tiles = [], over = false;
const socket = classSocket(() => '/ws/teacher', { onMessage, onRefused: m => notice(m.message) });
const send = msg => { if (!over && !socket.send(msg)) notice('not connected: sent when the page is back (it reconnects by itself)'); };
function notice(text) { $('notice').textContent = text ? text[0].toUpperCase() + text.slice(1) : ''; }

// How pupils join: the code, big; the addresses; the QR code (hidden on request, remembered).
const HIDE = `matchbox-projector-hide-${location.port || 80}`;
function showJoin(m) {
  $('join-code').textContent = m.code;
  $('join-where').replaceChildren(...m.addresses.map((a, i) => {
    const d = document.createElement('div');
    d.textContent = (i ? 'or ' : 'open ') + a.replace(/^http:\/\//, '').replace(/\/$/, '');
    return d;
  }));
  $('join-qr').innerHTML = m.qr.replace(/^<\?xml[^>]*>/, '');
}
function hideJoin(hidden) {
  $('join').classList.toggle('hidden', hidden);
  $('hide-join').textContent = hidden ? 'show how to join' : 'hide the QR code';
  localStorage.setItem(HIDE, hidden ? '1' : '');
}
hideJoin(!!localStorage.getItem(HIDE));
$('hide-join').onclick = () => hideJoin(!$('join').classList.contains('hidden'));

// Michie's learning curve: the machine's wins − losses after each of the class's games, with
// its axes: the games along, the score up, the zero line.
function drawCurve(c, games) {
  const svg = $('curve');
  const w = Math.max(200, svg.clientWidth), h = Math.max(120, svg.clientHeight);
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  const pts = [0, ...c];
  const lo = Math.min(0, ...pts), hi = Math.max(1, ...pts), span = hi - lo;
  const L = 48, R = w - 12, T = 10, B = h - 30;
  const x = i => L + i * (R - L) / Math.max(1, pts.length - 1), y = v => B - (v - lo) * (B - T) / span;
  const text = (tx, ty, s, anchor) => `<text x="${tx}" y="${ty}" font-size="15" text-anchor="${anchor}">${s}</text>`;
  const line = pts.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  svg.innerHTML = `<line x1="${L}" x2="${L}" y1="${T}" y2="${B}" stroke="#141414"/>`
    + `<line x1="${L}" x2="${R}" y1="${B}" y2="${B}" stroke="#141414"/>`
    + `<line x1="${L}" x2="${R}" y1="${y(0)}" y2="${y(0)}" stroke="#999" stroke-dasharray="4 4"/>`
    + text(L - 6, y(0) + 5, '0', 'end') + text(L - 6, T + 12, hi, 'end') + (lo < 0 ? text(L - 6, B, lo, 'end') : '')
    + text(L, h - 8, 'game 0', 'start') + text(R, h - 8, `game ${games}`, 'end')
    + (c.length ? `<polyline points="${line}" fill="none" stroke="#1a5fb4" stroke-width="3"/>` : '')
    + (c.length ? text(R, T + 14, `now ${c[c.length - 1] > 0 ? '+' : ''}${c[c.length - 1]}`, 'end') : '');
}

// The whole machine: a box a tile (a bar an arrow, as tall as its beads), sized so every box
// fits the column; a small machine (HER's 24 boxes) drawn whole, box by box, where there is
// room. The last game's boxes outlined, an empty box grey.
function drawMachine(tiles, hot) {
  const el = $('machine');
  if (!tiles.length) return;
  $('machine-title').textContent = `the whole machine: ${tiles.length} boxes` + (hot.size ? ' (outlined: the last game\'s)' : '');
  if (tiles[0].board && tiles[0].board.length) {
    tileShape = '';
    el.className = 'cards';
    el.replaceChildren(...tiles.map(t => boxCard({ ...t, arrows: t.arrows.map((a, k) => [a, t.beads[k]]) },
      hot.has(t.number) ? 'hot' : '')));
    return;
  }
  el.className = '';
  const W = el.clientWidth, H = el.clientHeight, n = tiles.length;
  const shape = `${n} ${W} ${H} ${tiles.map(t => t.beads.length).join(',')}`;
  if (tileShape !== shape) {
    // The tiles made again only when the machine or the column changes size; else changed in
    // place (a bar's height, a tile's outline): a slow laptop keeps up with a busy class.
    tileShape = shape;
    let best = { cols: 1, size: 0, th: H };
    for (let cols = 1; cols <= n; cols++) {
      const rows = Math.ceil(n / cols), tw = (W - 2 * cols) / cols, th = (H - 2 * rows) / rows;
      const size = Math.min(tw / 1.3, th);
      if (size > best.size) best = { cols, size, th };
    }
    el.style.gridTemplateColumns = `repeat(${best.cols}, minmax(0, 1fr))`;
    el.style.gridAutoRows = `${Math.floor(best.th)}px`;
    tileEls = tiles.map(t => {
      const d = document.createElement('div');
      const bars = document.createElement('div');
      bars.className = 'bars';
      const spans = t.beads.map((_, k) => { const sp = document.createElement('span'); sp.style.background = beadColour(k); return sp; });
      bars.append(...spans);
      if (best.th >= 22) d.append(`${t.number}`);
      d.append(bars);
      return { d, spans, key: '' };
    });
    el.replaceChildren(...tileEls.map(e => e.d));
  }
  tiles.forEach((t, i) => {
    const e = tileEls[i], key = `${hot.has(t.number)} ${t.beads.join(' ')}`;
    if (e.key === key) return;
    e.key = key;
    const total = t.beads.reduce((a, b) => a + b, 0), most = Math.max(1, ...t.beads);
    e.d.className = 'tile' + (hot.has(t.number) ? ' hot' : '') + (total === 0 ? ' empty' : '');
    e.d.title = `box ${t.number} · move ${t.move_number} · beads ${t.beads.join(' ')}`;
    t.beads.forEach((b, k) => { e.spans[k].style.height = `${100 * b / most}%`; });
  });
}
let tileEls = [], tileShape = '';

// The pupils: every one, in columns, the best first; a pupil whose page is away dimmed.
function drawPupils(pupils) {
  $('pupils-title').textContent = `${pupils.filter(p => p.here).length} pupils here: won, drawn, lost`;
  $('pupils').replaceChildren(...pupils.map(p => {
    const d = document.createElement('div');
    if (!p.here) d.className = 'away';
    const b = document.createElement('b');
    b.textContent = ` ${p.won} ${p.drawn} ${p.lost}`;
    d.append(p.name + (p.here ? '' : ' (away)'), b);
    return d;
  }));
}

// The boxes the last game drew from, as many as fit below the curve (and how many more).
function drawUsed(used) {
  const el = $('used');
  el.replaceChildren(...used.map(b => boxCard(b, 'used')));
  const bottom = el.parentElement.getBoundingClientRect().bottom;
  const cards = [...el.children];
  const hidden = cards.filter(c => c.getBoundingClientRect().bottom > bottom);
  hidden.forEach(c => c.remove());
  if (hidden.length) {
    const more = document.createElement('div');
    more.textContent = `and ${hidden.length} more (outlined in the whole machine)`;
    el.append(more);
    if (more.getBoundingClientRect().bottom > bottom && el.children.length > 1) el.children[el.children.length - 2].remove();
  }
}

let latest = null, shown = null;
function onMessage(m) {
  if (m.type === 'join') showJoin(m);
  else if (m.type === 'notice') notice(m.message);
  else if (m.type === 'class') {
    if (m.machine_boxes) tiles = m.machine_boxes;
    if (!latest) requestAnimationFrame(() => { const l = latest; latest = null; showClass(l); });
    latest = m;
  } else if (m.type === 'ended') endLesson(m.message);
}

function showClass(m) {
  shown = m;
  joining = m.joining;
  $('title').textContent = `${m.machine} learns ${m.game} from the class`;
  const [w, d, l] = m.score, games = w + d + l;
  $('score').textContent = `games ${games.toLocaleString('en')} · the machine won ${w}, drew ${d}, lost ${l}`
    + (m.under_way ? ` · ${m.under_way} under way` : '');
  $('last').textContent = m.last || '';
  $('pause').textContent = joining ? 'pause joining' : 'let pupils join';
  drawPupils(m.pupils);
  drawCurve(m.curve || [], games);
  drawUsed(m.used || []);
  drawMachine(tiles, new Set((m.used || []).map(b => b.number)));
  const [first, second] = m.side_names;
  machineSide = m.side; opponent = m.opponent;
  const other = m.side === 'first' ? second : first;
  $('side').textContent = `the machine plays ${m.side === 'first' ? first : second}: give it ${other}`;
  $('opponent').textContent = `the class's game: against the ${m.opponent} player (switch)`;
  $('side').disabled = $('reset').disabled = !!m.relay;
  const r = m.relay;
  $('relay').hidden = !r; $('collect').hidden = !r; $('relay-game').hidden = !r || r.playing;
  $('draw-for').hidden = !r || !r.waiting; $('tap-time').hidden = !r;
  $('deal').hidden = !!r;
  if (r) {
    $('relay-board').textContent = r.board.join('\n');
    $('relay-said').textContent = r.said;
    $('relay-moves').textContent = r.moves.length ? 'moves: ' + r.moves.join(' ') : '';
    const [rw, rd, rl] = r.score;
    $('relay-score').textContent = `the class as the machine: won ${rw}, drew ${rd}, lost ${rl}`;
    $('tap-time').value = r.tap_time == null ? '' : String(r.tap_time);
  }
}
window.addEventListener('resize', () => { if (shown) { drawMachine(tiles, new Set((shown.used || []).map(b => b.number))); drawCurve(shown.curve || [], shown.score.reduce((a, b) => a + b, 0)); } });

// The lesson is over: the server has stopped, so the buttons and downloads say why they no
// longer work (the machine and its labels are in the files the terminal named).
function endLesson(message) {
  over = true;
  notice(`${message}: the machine is saved; its files are on the laptop`);
  for (const b of document.querySelectorAll('footer button, footer select')) {
    b.disabled = true; b.title = 'the lesson is over';
  }
  for (const a of document.querySelectorAll('footer .download')) {
    a.classList.add('off'); a.title = 'the lesson is over: the machine is in the file the terminal named';
  }
}

$('pause').onclick = () => send({ type: joining ? 'pause_joining' : 'resume_joining' });
$('save').onclick = () => send({ type: 'save' });
$('deal').onclick = () => send({ type: 'deal' });
$('relay-game').onclick = () => send({ type: 'class_game' });
$('draw-for').onclick = () => send({ type: 'draw_for' });
$('tap-time').onchange = e => send({ type: 'tap_time', seconds: e.target.value ? Number(e.target.value) : null });
$('collect').onclick = () => send({ type: 'collect' });
$('side').onclick = () => {
  if (confirm('Give the class a new machine for the other side? Games under way stop; this machine is kept in a file.'))
    send({ type: 'side', side: machineSide === 'first' ? 'second' : 'first' });
};
$('opponent').onclick = () => send({ type: 'opponent', opponent: opponent === 'perfect' ? 'random' : 'perfect' });
$('reset').onclick = () => {
  if (confirm('Reset the machine? Every box gets its first beads again; games under way stop; this machine is kept in a file.'))
    send({ type: 'reset' });
};
$('end').onclick = () => { if (confirm('End the lesson? The machine is saved.')) send({ type: 'end_lesson' }); };
