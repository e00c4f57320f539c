// A matchbox as the class's pages draw it (the pupil's phone and the projector): its number and
// move, the position on its lid, and a row of beads an arrow, each arrow's beads in the colour
// the labels and the screens give it. `BEAD_COLOURS` is put before this script by the server,
// from the program's palette.
"use strict";
(function () {
  const style = document.createElement('style');
  style.textContent = `
    .mb-box { border: 1px solid #888; border-radius: .4rem; padding: .3rem .5rem; font-size: .9rem; position: relative; }
    .mb-box pre { font-family: "DejaVu Sans Mono", monospace; font-size: 1.1rem; line-height: 1.1; margin: .2rem 0; }
    .mb-row { white-space: nowrap; line-height: 1.4; }
    .mb-row.drawn { font-weight: bold; outline: 2px solid #141414; border-radius: .3rem; }
    .mb-bead { display: inline-block; width: .8em; height: .8em; border-radius: 50%; margin-right: 1px;
      vertical-align: -0.05em; border: 1px solid #0005; box-sizing: border-box; }
    .mb-none { color: #777; }
    .mb-flying { position: absolute; width: 1.6rem; height: 1.6rem; border-radius: 50%; border: 2px solid #141414;
      left: 50%; top: 40%; pointer-events: none; animation: mb-leave 1.2s ease-out forwards; }
    @keyframes mb-leave {
      0% { transform: translate(-50%, 0) scale(.6); opacity: 1; }
      60% { transform: translate(-50%, -5rem) scale(1.3); opacity: 1; }
      100% { transform: translate(-50%, -7rem) scale(1.3); opacity: 0; }
    }
    @media (prefers-reduced-motion: reduce) { .mb-flying { animation: none; opacity: 0; } }`;
  document.head.append(style);
})();

// The colour of arrow `k`'s beads.
function beadColour(k) {
  return BEAD_COLOURS[k % BEAD_COLOURS.length];
}

// One box: `b` as the server sends it ({number, move_number, board, arrows: [[move, beads]]});
// `cls` the card's own class; `drawn` the arrow whose bead was just drawn (shown leaving the
// box), if one was.
function boxCard(b, cls, drawn) {
  const d = document.createElement('div');
  d.className = 'mb-box ' + (cls || '');
  d.dataset.box = b.number;
  const title = document.createElement('div');
  title.textContent = `box ${b.number} · move ${b.move_number}`;
  const pre = document.createElement('pre');
  pre.textContent = b.board.join('\n');
  d.append(title, pre);
  b.arrows.forEach(([mv, n], k) => {
    const row = document.createElement('div');
    row.className = 'mb-row' + (k === drawn ? ' drawn' : '');
    row.append(`${mv} `);
    for (let i = 0; i < Math.min(n, 12); i++) {
      const s = document.createElement('span');
      s.className = 'mb-bead';
      s.style.background = beadColour(k);
      row.append(s);
    }
    if (n > 12) row.append(` ${n}`);
    if (n === 0) { const s = document.createElement('span'); s.className = 'mb-none'; s.textContent = 'none'; row.append(s); }
    d.append(row);
  });
  if (drawn != null && drawn < b.arrows.length) {
    const bead = document.createElement('span');
    bead.className = 'mb-flying';
    bead.style.background = beadColour(drawn);
    bead.setAttribute('aria-label', `a bead of ${b.arrows[drawn][0]} leaves box ${b.number}`);
    d.append(bead);
  }
  return d;
}
