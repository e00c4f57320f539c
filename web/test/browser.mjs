// The browser test of matchbox's page (run by .ci/run after web/build.sh): web/dist served on
// localhost, Debian's chromium headless, driven by playwright-core. It checks what a class sees
// and prints the page's speed (a measurement, not a timed assertion). Screenshots at phone and
// projector size go to web/screenshots/ when asked (UPDATE_SCREENSHOTS=1), else to a temporary
// folder, so a test run leaves the committed pictures alone.
//
//   node web/test/browser.mjs [path/to/matchbox]   (the CLI binary, for a machine file it saved)

import { launch, check, failed, finish } from './harness.mjs';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const dist = join(root, 'web', 'dist');
const shots = process.env.UPDATE_SCREENSHOTS ? join(root, 'web', 'screenshots') : mkdtempSync(join(tmpdir(), 'matchbox-shots-'));
const cli = resolve(process.argv[2] || join(root, 'target', 'debug', 'matchbox'));
const port = 18000 + Math.floor(Math.random() * 2000);
const base = `http://127.0.0.1:${port}/`;


const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '-d', dist], { stdio: 'ignore' });
const browser = await launch();

async function open(query, viewport = { width: 1280, height: 800 }, touch = false) {
  const page = await browser.newPage({ viewport, acceptDownloads: true, hasTouch: touch, isMobile: touch });
  page.on('pageerror', e => { console.log('page error:', e.message); failed(); });
  for (let i = 0; i < 50; i++) {
    try { await page.goto(base + query); break; } catch { await page.waitForTimeout(100); }
  }
  return page;
}
// The screen's text as the page last drew it (on a canvas or in spans alike).
const screenText = page => page.evaluate(() => window.matchboxScreen?.text() ?? '').catch(() => ''); // '' while the page reloads
async function waitFor(page, test, ms = 15000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (test(await screenText(page))) return true;
    await page.waitForTimeout(100);
  }
  return false;
}
/// The games played, from the score panel.
async function games(page) {
  const m = (await screenText(page)).match(/games\s+([\d,]+)/);
  return m ? Number(m[1].replace(/,/g, '')) : 0;
}

/// The middle of the character `offset` after the first match of `pattern` on a row of the
/// screen, in page coordinates; null if no row matches.
async function placeOf(page, pattern, offset = 0) {
  const lines = (await screenText(page)).split('\n');
  const re = new RegExp(pattern);
  for (let row = 0; row < lines.length; row++) {
    const m = re.exec(lines[row]);
    if (m) {
      const col = [...lines[row].slice(0, m.index)].length + offset;
      return page.evaluate(([c, r]) => window.matchboxScreen.cell(c, r), [col, row]);
    }
  }
  return null;
}
/// The grid's columns and rows, and how it is drawn.
const gridOf = page => page.evaluate(() => {
  const [cols, rows] = window.matchboxScreen.grid();
  return { cols, rows, render: window.matchboxScreen.render };
});

try {
  // HER, as the page opens with no settings.
  let page = await open('');
  check(await waitFor(page, t => t.includes('HER (black) learns hexapawn 3x3')), "the page shows HER's title");
  check((await screenText(page)).includes('Machine: 24 boxes'), 'and its 24 boxes');
  // A click on a box of the machine panel opens it in the box browser. The box is found by its
  // number followed by its bead bars (not any " 17 " on screen), and the click is tried again
  // if the screen moved under it (the machine is learning while the test looks).
  let opened = false;
  for (let attempt = 0; attempt < 5 && !opened; attempt++) {
    const box = await placeOf(page, ' 17 [\u2581-\u2588]', 1);
    if (box) await page.mouse.click(box.x, box.y);
    opened = await waitFor(page, t => t.includes('Box 17 of 24'), 2000);
  }
  check(opened, 'a click on box 17 opens it in the browser');
  // m: the whole machine; p: play the machine being watched, and Esc back to watching.
  await page.keyboard.press('Escape');
  await page.keyboard.press('m');
  check(await waitFor(page, t => t.includes('Every box of HER (black)') && t.includes('move 2 · 2 boxes'), 5000), 'm shows the whole machine');
  await page.keyboard.press('Escape');
  await page.keyboard.press('p');
  check(await waitFor(page, t => t.includes('Your move') && t.includes('Esc watch'), 5000), 'p plays the machine being watched');
  await page.keyboard.press('Escape');
  check(await waitFor(page, t => t.includes('HER (black) learns hexapawn 3x3') && t.includes('Machine: 24 boxes'), 5000), 'and Esc goes back to watching');
  await page.close();

  // The address holds the settings, with the command line's names; the page shows them.
  page = await open('?game=hexapawn&size=4x4&side=white&seed=3&symmetry=none');
  check(await waitFor(page, t => t.includes('(white) learns hexapawn 4x4')), 'a link opens the run it names (hexapawn 4x4, the machine White)');
  check(await page.inputValue('#fields [name=size]') === '4x4', 'and the settings show it');
  await page.close();
  // A name of history gives the machine its side, as on the command line: `him` is HIM (white).
  page = await open('?game=him');
  check(await waitFor(page, t => t.includes('HIM (white) learns hexapawn 3x3')), '?game=him trains HIM (white), as `matchbox watch him` does');
  check(await page.inputValue('#game') === 'him', 'and the game list (from the registry) shows Hexapawn (HIM)');
  const listed = await page.locator('#game option').allTextContents();
  check(['Hexapawn (HER)', 'Hexapawn (HIM)', 'Noughts and crosses (MENACE)', 'Havannah base 3', 'Mini-Arimaa'].every(t => listed.includes(t)), 'the game list names every game and historic machine: ' + listed.join(', '));
  await page.close();
  // With no seed in the address the page draws one, writes it there and shows it.
  page = await open('?game=tictactoe');
  check(await waitFor(page, t => t.includes('MENACE')), 'MENACE opens');
  const drawn = new URL(page.url()).searchParams.get('seed');
  check(drawn !== null && /^\d+$/.test(drawn), `a seed is drawn and written into the address (${drawn})`);
  check(await page.inputValue('#fields [name=seed]') === drawn, 'and the settings show it');
  // Every letter reads: no text drawn in its background's colour (the live box's number was
  // white on white), on the watch screen with a box just opened.
  await page.keyboard.press('+');
  await page.waitForTimeout(1500);
  const unreadable = await page.evaluate(() => window.matchboxScreen.unreadable());
  check(unreadable.length === 0, `no text in its background's colour (${unreadable.slice(0, 5).join('; ')})`);
  await page.close();
  page = await open('?game=havannah&size=3');
  check(await waitFor(page, t => t.includes('havannah base 3')), 'a link to Havannah base 3 opens it');
  check(await page.inputValue('#game') === 'havannah&size=3', 'and the game list shows Havannah base 3');
  await page.close();
  page = await open('?game=chess');
  await page.waitForTimeout(500);
  check((await page.locator('#message').innerText()).startsWith('error: game: unknown game'), 'an unknown game is refused in one line');
  await page.close();

  // Flat out: past 100,000 games, and the speed beside the frame rate.
  for (const [name, query] of [['HER', '?speed=flat-out'], ['MENACE', '?game=tictactoe&speed=flat-out']]) {
    page = await open(query);
    const start = Date.now();
    let n = 0;
    while (Date.now() - start < 20000 && n <= 100000) { await page.waitForTimeout(200); n = await games(page); }
    check(n > 100000, `${name} at flat out passes 100,000 games (${n.toLocaleString('en')})`);
    await page.waitForTimeout(2500);
    console.log(`     ${name} in the browser: ${await page.locator('#rate').innerText()}`);
    await page.close();
  }

  // "100 games/s" plays 100 games a second, several in a frame (the page draws 30 to 60).
  page = await open('?speed=100&seed=5');
  await waitFor(page, t => t.includes('HER (black) learns'));
  await page.waitForTimeout(1000);
  const g0 = await games(page), t0 = Date.now();
  await page.waitForTimeout(5000);
  const perSec = (await games(page) - g0) / ((Date.now() - t0) / 1000);
  check(perSec > 80 && perSec < 120, `"100 games/s" plays ${perSec.toFixed(0)} games a second (within 20 % of 100)`);
  await page.close();

  // Play: a legal move by a click on the list, an illegal one by keys.
  page = await open('?screen=play');
  check(await waitFor(page, t => t.includes('Your move')), 'the play screen opens');
  const at = await placeOf(page, '  b1-b2', 3);
  check(at !== null, 'the move b1-b2 is listed');
  if (at) await page.mouse.click(at.x, at.y);
  check(await waitFor(page, t => /b1-b2 [a-c][1-3][-x][a-c][1-3]/.test(t), 5000), 'a click on b1-b2 plays it, and the machine answers');
  await page.keyboard.type('a1-a3');
  await page.keyboard.press('Enter');
  check(await waitFor(page, t => /not a\s*(│\s*)*legal/.test(t) || t.includes('not a legal'), 5000), 'an illegal move typed is refused with the message');
  await page.close();

  // A phone held upright: the panels one above the other, in a font that reads, and a move
  // by two taps on the board (the pawn, then where it goes).
  page = await open('?screen=play', { width: 390, height: 844 }, true);
  check(await waitFor(page, t => t.includes('Your move')), 'the play screen opens on a phone');
  const grid = { ...(await gridOf(page)), size: await page.evaluate(() => parseFloat(getComputedStyle(document.getElementById('screen')).fontSize)) };
  check(grid.render === 'dom', `a phone's screen is drawn by the DOM (${grid.render})`);
  check(grid.cols >= 40 && grid.cols < 80 && grid.size >= 11, `the phone's grid is ${grid.cols}×${grid.rows} in a ${grid.size} px font`);
  const text = await screenText(page);
  check(text.indexOf('Your move') > text.indexOf('Game 1'), 'the move list is under the board');
  const a1 = await placeOf(page, '│ 1 W', 4), a2 = await placeOf(page, '│ 2 ·', 4);
  check(a1 !== null && a2 !== null, 'the board shows a1 and a2');
  if (a1 && a2) {
    await page.touchscreen.tap(a1.x, a1.y);
    check(await waitFor(page, t => t.includes('a1: now where it goes'), 5000), 'a tap on the pawn on a1 picks it');
    await page.touchscreen.tap(a2.x, a2.y);
    check(await waitFor(page, t => /a1-a2 [a-c][1-3][-x][a-c][1-3]/.test(t), 5000), 'a tap on a2 plays a1-a2, and the machine answers');
  }
  await page.close();

  // Noughts and crosses as O: MENACE moves first, as X.
  page = await open('?game=tictactoe&screen=play&as=o');
  check(await waitFor(page, t => t.includes('you (o) against MENACE (x)')), 'noughts and crosses as O against MENACE (x)');
  check(await waitFor(page, t => /│ [1-3] [·X] [·X] [·X] /.test(t) && t.includes(' X ')), "MENACE's first X is on the board");
  await page.close();

  // A machine the command line saved loads and shows its games; a bad file is refused.
  const dir = mkdtempSync(join(tmpdir(), 'matchbox-web-'));
  const saved = join(dir, 'her-37.yaml');
  execFileSync(cli, ['train', 'hexapawn', '--games', '37', '--seed', '5', '--save', saved, '--force']);
  page = await open('');
  await page.setInputFiles('#open-file', saved);
  check(await waitFor(page, t => t.includes('Game 38')), 'a machine saved by the command line opens at its game 38');
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, readFileSync(saved, 'utf8').replace('games_played: 37', 'games_played: lots'));
  await page.setInputFiles('#open-file', bad);
  await page.waitForTimeout(500);
  const message = await page.locator('#message').innerText();
  check(message.startsWith('error: bad.yaml: key `games_played`'), `a bad file gets the one-line error (${message})`);
  // The machine downloads as the command line's YAML and loads there.
  let download = page.waitForEvent('download');
  await page.click('#save-machine');
  const yaml = join(dir, 'from-page.yaml');
  await (await download).saveAs(yaml);
  const out = execFileSync(cli, ['boxes', 'hexapawn', '--boxes', yaml, '--count', '--json']).toString();
  check(JSON.parse(out).games_played >= 37, 'the machine saved by the page loads in the command line');
  // The labels PDF, and the chart once some games are played.
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.waitForTimeout(1500);
  download = page.waitForEvent('download');
  await page.click('#save-labels');
  const pdf = join(dir, 'labels.pdf');
  await (await download).saveAs(pdf);
  check(readFileSync(pdf).subarray(0, 5).toString() === '%PDF-', 'the labels PDF downloads and starts with %PDF-');
  // Its document title says what the labels are of: blank (a new machine's beads) by default,
  // the beads the machine holds now from the second button.
  const titled = (file, text) => {
    const hex = readFileSync(file, 'latin1').match(/\/Title <FEFF([0-9A-F]*)>/)?.[1] ?? '';
    return Buffer.from(hex, 'hex').swap16().toString('utf16le').includes(text);
  };
  check(titled(pdf, 'HER: hexapawn') && titled(pdf, 'beads 1') && !titled(pdf, 'beads after'),
    'the labels PDF is blank labels to build HER (beads 1 a move)');
  download = page.waitForEvent('download');
  await page.click('#save-trained-labels');
  const trained = join(dir, 'trained.pdf');
  const trainedFile = await download;
  await trainedFile.saveAs(trained);
  check(titled(trained, 'beads after') && /labels-after-\d+-games\.pdf$/.test(trainedFile.suggestedFilename()),
    `the trained labels PDF holds the beads after the games played (${trainedFile.suggestedFilename()})`);
  download = page.waitForEvent('download');
  await page.click('#save-chart');
  const svg = join(dir, 'chart.svg');
  await (await download).saveAs(svg);
  const chartText = readFileSync(svg, 'utf8');
  check(chartText.startsWith('<svg'), 'the chart downloads as SVG');
  check(chartText.includes('HER (black) v perfect player') && chartText.includes('perfect play'),
    "the page's chart is the command line's: its opponent in the title, the perfect-play line");
  download = page.waitForEvent('download');
  await page.click('#save-png');
  const png = join(dir, 'chart.png');
  await (await download).saveAs(png);
  check(readFileSync(png).subarray(1, 4).toString() === 'PNG', 'and as PNG');
  await page.close();

  // A projector: a bigger grid, not only a bigger font; the whole machine pages by buttons.
  page = await open('?game=tictactoe&speed=flat-out&seed=3', { width: 1920, height: 1080 });
  check(await waitFor(page, t => t.includes('Game')), 'MENACE opens on a projector');
  const big = await gridOf(page);
  check(big.render === 'canvas', `a projector's screen is drawn on a canvas (${big.render})`);
  check(big.cols >= 240 && big.rows >= 67, `the projector's grid is ${big.cols}×${big.rows}`);
  check(await waitFor(page, t => t.includes('First box'), 5000), "the first box's chart shows on a projector");
  await page.locator('#keys button', { hasText: 'machine' }).click();
  const allShown = await waitFor(page, t => t.includes('all 304 boxes'), 5000);
  const tiles = (await screenText(page)).match(/\b\d+\b/g)?.map(Number) ?? [];
  check(allShown && tiles.includes(304) && tiles.includes(150), "all 304 of MENACE's boxes on one page of the whole machine on a projector");
  await page.close();
  // A laptop's window pages the whole machine by buttons.
  page = await open('?game=tictactoe&speed=flat-out&seed=3', { width: 1280, height: 720 });
  check(await waitFor(page, t => t.includes('Game')), 'MENACE opens on a laptop');
  await page.locator('#keys button', { hasText: 'machine' }).click();
  check(await waitFor(page, t => /boxes 1–(\d+) of 304/.test(t), 5000), 'the whole machine opens on a laptop');
  const onLaptop = Number((await screenText(page)).match(/boxes 1–(\d+) of 304/)?.[1] ?? 0);
  check(onLaptop >= 60 && onLaptop < 304, `a laptop's first page of the machine holds boxes 1–${onLaptop}`);
  await page.locator('#keys button', { hasText: 'page ↓' }).click();
  check(await waitFor(page, t => new RegExp(`boxes ${onLaptop + 1}–`).test(t), 5000), 'a button turns the page');
  await page.locator('#keys button', { hasText: 'page ↑' }).click();
  check(await waitFor(page, t => /boxes 1–/.test(t), 5000), 'and turns it back');
  await page.close();

  // The cart-pole: BOXES balancing a pole, on a projector and on a phone held upright; its keys
  // as buttons from the key table; flat out, trials go by; `s` downloads the BOXES machine.
  page = await open('?game=cartpole&seed=3', { width: 1920, height: 1080 });
  check(await waitFor(page, t => t.includes('balancing a pole') && t.includes('the 162 boxes')), 'the cart-pole opens on a projector');
  const labels = await page.locator('#keys button').allTextContents();
  check(['pause', 'one push', 'faster', 'slower', 'again', 'save'].every(l => labels.includes(l)), `the cart-pole's buttons: ${labels}`);
  for (let i = 0; i < 4; i++) await page.locator('#keys button', { hasText: 'faster' }).click();
  check(await waitFor(page, t => t.includes('flat out') && /trial (\d{3,})/.test(t), 10000), 'flat out, hundreds of trials go by');
  const polesaving = page.waitForEvent("download", { timeout: 5000 }).catch(() => null);
  await page.locator('#keys button', { hasText: 'save' }).click();
  const poleSaved = await polesaving;
  check(poleSaved && poleSaved.suggestedFilename() === 'cartpole-boxes.yaml', 'save downloads the BOXES machine');
  check(await waitFor(page, t => t.includes('saved the machine after'), 5000), 'and says so');
  await page.close();
  page = await open('?game=cartpole&learner=ase&seed=2', { width: 390, height: 844 }, true);
  check(await waitFor(page, t => t.includes('ASE/ACE') && t.includes('the 162 boxes')), 'ASE/ACE opens on a phone');
  const upright = await gridOf(page);
  check(upright.cols < 80 && upright.rows >= 42, `a phone's cart-pole is one panel above the other (${upright.cols}×${upright.rows})`);
  check((await page.evaluate(() => window.matchboxScreen.unreadable())).length === 0, "every cell of the phone's cart-pole is readable");
  await page.screenshot({ path: join(shots, 'phone-cartpole.png') });
  await page.close();

  // Beside the real boxes: MENACE's operator on a phone, by taps — a bead's line plays its
  // square, the board takes the visitor's move, `undo` takes it back; a colour the box lacks,
  // typed in the page's field, is refused; a reload (a phone that slept) comes back to the game
  // under way; the record downloads as `train --record` reads it.
  page = await open('?game=tictactoe&screen=operate&seed=4', { width: 390, height: 844 }, true);
  check(await waitFor(page, t => t.includes('open box 1')), 'the operator is told to open box 1');
  const bead = await placeOf(page, 'B sky blue');
  if (bead) await page.touchscreen.tap(bead.x, bead.y);
  check(await waitFor(page, t => t.includes("the visitor's move") && /│ 1 · X · /.test(t), 5000), 'a tap on the sky blue bead plays b1');
  const c3 = await placeOf(page, '│ 3 · · ·', 8);
  if (c3) await page.touchscreen.tap(c3.x, c3.y);
  check(await waitFor(page, t => /│ 3 \S \S O/.test(t) && t.includes('open box'), 5000), 'a tap on c3 plays the visitor there (the next box\'s letters on the empty squares)');
  await page.fill('#typed', 'brown');
  await page.press('#typed', 'Enter');
  check(await waitFor(page, t => /has no brown\s+beads/.test(t.replace(/\n/g, ' ')), 5000), 'a colour the box lacks is refused');
  await page.reload();
  check(await waitFor(page, t => /│ 3 \S \S O/.test(t) && /│ 1 \S X \S /.test(t) && t.includes('open box'), 15000), 'a reload comes back to the game under way');
  const undo = await placeOf(page, ' undo ', 1);
  if (undo) await page.touchscreen.tap(undo.x, undo.y);
  check(await waitFor(page, t => /│ 3 · · · /.test(t) && t.includes("the visitor's move"), 5000), 'undo takes the visitor back');
  check((await page.evaluate(() => window.matchboxScreen.unreadable())).length === 0, "every cell of the operator's phone screen is readable");
  await page.screenshot({ path: join(shots, 'phone-operate.png') });
  const recording = page.waitForEvent('download', { timeout: 5000 }).catch(() => null);
  await page.click('#save-record');
  const record = await recording;
  const recordText = record ? readFileSync(await record.path(), 'utf8') : '';
  check(record?.suggestedFilename() === 'tictactoe-real.txt' && recordText.includes('game: tictactoe') && recordText.includes('# under way: b1'), 'the record downloads, its game under way in a comment');
  await page.close();

  // The room's projector beside an operator at a terminal (`operate --projector`): the page
  // follows each step typed, in a font the room reads.
  const roomPort = port + 1;
  const roomDir = mkdtempSync(join(tmpdir(), 'matchbox-room-'));
  const operator = spawn(cli, ['operate', 'tictactoe', '--lines', '--seed', '7', '--projector', `127.0.0.1:${roomPort}`], { cwd: roomDir, stdio: ['pipe', 'ignore', 'inherit'] });
  operator.on('error', e => { console.log(`operate: ${e.message}`); failed(); });
  operator.stdin.on('error', () => {});
  page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const roomText = () => page.evaluate(() => document.getElementById('screen').textContent).catch(() => '');
  const roomWait = async (test, ms = 10000) => {
    for (const until = Date.now() + ms; Date.now() < until; await page.waitForTimeout(100)) if (test(await roomText())) return true;
    return false;
  };
  for (let i = 0; i < 50; i++) { try { await page.goto(`http://127.0.0.1:${roomPort}/`); break; } catch { await page.waitForTimeout(100); } }
  check(await roomWait(t => t.includes('open box 1')), "the room's page shows the box to open");
  operator.stdin.write('A\n');
  check(await roomWait(t => t.includes("the visitor's move")), "and follows the operator's step");
  const roomFont = await page.evaluate(() => parseFloat(document.getElementById('screen').style.fontSize));
  check(roomFont >= 20, `the room's page is read from the back of a room (${roomFont} px at 1280×720)`);
  await page.screenshot({ path: join(shots, 'projector-operate-room.png') });
  operator.stdin.end('quit\n');
  await page.close();

  // Screenshots for the README, at a phone's size and a projector's.
  mkdirSync(shots, { recursive: true });
  for (const [name, viewport, query] of [
    ['phone-her', { width: 390, height: 844 }, '?speed=10'],
    ['phone-play-havannah', { width: 390, height: 844 }, '?game=havannah&size=3&screen=play'],
    ['projector-menace', { width: 1920, height: 1080 }, '?game=tictactoe&opponent=random&speed=10&seed=1'],
    ['projector-play', { width: 1920, height: 1080 }, '?game=tictactoe&screen=play&as=o'],
    ['projector-cartpole', { width: 1920, height: 1080 }, '?game=cartpole&seed=3'],
    ['projector-operate', { width: 1920, height: 1080 }, '?game=tictactoe&screen=operate&seed=7'],
  ]) {
    page = await open(query, viewport);
    await waitFor(page, t => t.includes('Game') || t.includes('balancing') || t.includes('open box'));
    await page.waitForTimeout(3000);
    await page.screenshot({ path: join(shots, `${name}.png`) });
    await page.close();
  }
} finally {
  await browser.close();
  server.kill();
}
finish('browser');
