// The browser test of `matchbox class` (run by .ci/run): a lesson as a class lives it. The server
// started as a teacher starts it; the projector at 1920×1080 (then 1280×720) and six phones
// (390×844, touch, each its own browser profile) in Debian's headless chromium; the pupils play
// by tapping the board; a phone reloads, a phone loses its network for 30 s, the server is
// killed (kill -9) mid-lesson and resumed; the class becomes the machine. Screenshots go to
// web/screenshots/ when asked (UPDATE_SCREENSHOTS=1), else to a temporary folder.
//
//   node web/test/class.mjs [path/to/matchbox]

import { launch, check, failing, finish } from './harness.mjs';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { createServer, connect } from 'node:net';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const cli = process.argv[2] || join(root, 'target', 'debug', 'matchbox');
const scratch = mkdtempSync(join(tmpdir(), 'matchbox-class-'));
const shots = process.env.UPDATE_SCREENSHOTS ? join(root, 'web', 'screenshots') : scratch;
const save = join(scratch, 'lesson.yaml');
const serverSaid = [];

// Starts the server (listening on `listen`); its process, the pupils' address, the code and
// the teacher's address, as it prints them.
async function startServer(listen, extra = []) {
  const server = spawn(cli, ['class', 'tictactoe', '--listen', listen, '--seed', '7', '--save', save, '--tap-time', '0', ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  // What the server says on its standard error, kept to be shown if a check fails.
  createInterface({ input: server.stderr }).on('line', l => { serverSaid.push(l); serverSaid.splice(0, serverSaid.length - 40); });
  const lines = createInterface({ input: server.stdout });
  const said = [];
  for await (const line of lines) { said.push(line); if (line.includes('/teacher?token=')) break; }
  lines.on('line', l => said.push(l));
  const pupils = said[0].match(/(http:\/\/([^/]+)\/) and type the code (\w+)/);
  const teacher = said.find(l => l.includes('token='))?.match(/(http:\S+token=[0-9a-f]+)/);
  return { server, base: pupils?.[1], host: pupils?.[2], code: pupils?.[3], teacher: teacher?.[1], said };
}

// Whether everything the projector shows fits the window: no scrolling, and the last pupil, the
// last box and the controls inside it.
async function fits(page) {
  return page.evaluate(() => {
    const h = innerHeight, w = innerWidth;
    const inside = el => !el || (el.getBoundingClientRect().bottom <= h + 1 && el.getBoundingClientRect().right <= w + 1);
    const last = sel => { const all = document.querySelectorAll(sel); return all[all.length - 1]; };
    return document.documentElement.scrollHeight <= h + 1 && inside(last('#pupils div')) && inside(last('#machine > *'))
      && inside(document.querySelector('footer')) && inside(document.querySelector('#curve'));
  });
}

// One tap of a phone's game: the board's square (or a piece, then its target), or "play again".
async function tapOnce(p) {
  if (await p.locator('#again').isVisible()) { await p.locator('#again').tap(); return 'again'; }
  const can = p.locator('#grid .cell.can');
  const n = await can.count();
  if (!n) return null;
  await can.nth(Math.floor(Math.random() * n)).tap();
  return 'move';
}

// A phone's Wi-Fi: a TCP relay on loopback between one phone and the server, which can be cut
// (every connection through it dropped, new ones refused) and restored — a network lost and
// found again, as a phone sees it.
function wifi(target) {
  const [host, port] = target.split(':');
  const open = new Set();
  let down = false;
  const relay = createServer(client => {
    if (down) { client.destroy(); return; }
    const server = connect(Number(port), host);
    open.add(client); open.add(server);
    client.pipe(server); server.pipe(client);
    const drop = () => { client.destroy(); server.destroy(); open.delete(client); open.delete(server); };
    client.on('error', drop); server.on('error', drop); client.on('close', drop); server.on('close', drop);
  });
  return new Promise(ok => relay.listen(0, '127.0.0.1', () => ok({
    base: `http://127.0.0.1:${relay.address().port}/`,
    cut() { down = true; for (const s of open) s.destroy(); open.clear(); },
    restore() { down = false; },
    close() { relay.close(); },
  })));
}

const gamesOn = async projector => Number((await projector.locator('#score').innerText()).match(/games ([\d,]+)/)?.[1].replace(/,/g, '') ?? -1);
const within = (page, fn, arg, ms = 10000) => page.waitForFunction(fn, arg, { timeout: ms }).then(() => true, () => false);

let s = await startServer('127.0.0.1:0');
check(s.base && s.code && s.teacher, `the server prints the pupils' address and code first, the teacher's address apart: ${JSON.stringify(s.said.slice(0, 2))}`);
check(s.said.findIndex(l => l.includes('token=')) > 0, 'the teacher\'s address is not on the pupils\' line');
const { base, code, host } = s;
const browser = await launch();
try {
  const stranger = await browser.newPage();
  check((await stranger.goto(base + 'projector')).status() === 403, 'the projector needs the teacher\'s address');
  await stranger.close();
  const projector = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await projector.goto(s.teacher);
  check(await within(projector, () => document.getElementById('title').textContent.includes('learns')), 'the projector shows the class\'s machine');
  check(await projector.locator('#join-code').innerText() === code, `the projector shows the join code ${code}`);
  check(await projector.locator('#join-qr svg').count() === 1 && (await projector.locator('#join-where').innerText()).includes(host),
    'the projector shows the address and a QR code');
  // Six phones, each its own browser (its own storage), join with the code typed.
  const phones = [];
  const air = await wifi(host);
  for (let i = 0; i < 6; i++) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const p = await context.newPage();
    // The second phone reaches the laptop over a Wi-Fi that the test can cut.
    await p.goto(i === 1 ? air.base : base);
    await p.locator('#code').fill(code.toLowerCase());
    check(i > 0 || await p.evaluate(() => { const c = document.getElementById('code'); return c.scrollWidth <= c.clientWidth; }), 'the code field shows all five letters');
    await p.tap('#go');
    phones.push({ context, p });
  }
  const first = phones[0].p;
  check(await within(first, () => document.querySelectorAll('#grid .cell.can').length > 0), 'a pupil sees a board to tap');
  const who = await first.locator('#who').innerText();
  check(/You are \w+ \w+ \d\. You play o in noughts and crosses\./.test(who), `a pupil is told their name and side in words: "${who}"`);
  // The pupils play by tapping the board.
  let outcome = '', marked = false;
  for (let round = 0; round < 30; round++) {
    for (const { p } of phones) {
      if (!outcome && await p.locator('#again').isVisible()) outcome = await p.locator('#said').innerText();
      marked ||= await p.locator('#grid .cell.last').count() > 0;
      await tapOnce(p);
    }
  }
  await projector.waitForTimeout(600);
  const games = await gamesOn(projector);
  check(games >= 6, `the projector counts the class's games 1, 2, 3… (${games})`);
  check(marked, 'a phone marks the machine\'s last move on the board');
  check(/(took|gave (the machine|it)) \d+ beads?|changed no beads/.test(outcome), `a pupil is told what the machine learned: "${outcome}"`);
  check(await projector.locator('#curve polyline').count() === 1 && (await projector.locator('#curve').innerHTML()).includes(`game ${games}`),
    'the projector draws the learning curve with its axes');
  check(await projector.locator('#pupils div').count() === 6, 'the leaderboard lists the six pupils');
  check(await projector.locator('#machine .tile').count() === 304, 'the projector shows the whole machine');
  check(await fits(projector), 'at 1920×1080 nothing is below the fold');
  await projector.screenshot({ path: join(shots, 'class-projector.png') });
  await projector.setViewportSize({ width: 1280, height: 720 });
  await projector.waitForTimeout(300);
  check(await fits(projector), 'at 1280×720 nothing is below the fold');
  await projector.screenshot({ path: join(shots, 'class-projector-720.png') });
  await projector.setViewportSize({ width: 1920, height: 1080 });
  await first.screenshot({ path: join(shots, 'class-phone.png') });

  // A reloaded phone is the same pupil.
  const name = who.match(/You are (\w+ \w+ \d)/)[1];
  await first.reload();
  check(await within(first, n => document.getElementById('who').textContent.includes(n), name), `a reloaded phone keeps its name (${name})`);

  // A phone without network for 30 s comes back by itself as the same pupil, with its score.
  const second = phones[1];
  const score2 = async () => (await projector.locator('#pupils div', { hasText: await second.p.locator('#who').innerText().then(t => t.match(/You are (\w+ \w+ \d)/)[1]) }).innerText());
  const before = await score2();
  air.cut();
  check(await within(second.p, () => /reconnecting/.test(document.getElementById('link')?.textContent || ''), null, 25000),
    'a phone without network says it is reconnecting');
  await second.p.waitForTimeout(30000);
  air.restore();
  const back = await within(second.p, () => /back/.test(document.getElementById('link')?.textContent || '')
    || document.querySelectorAll('#grid .cell.can, #again:not([hidden])').length > 0, null, 15000);
  check(back, 'a phone whose network was cut for 30 s is back by itself');
  check((await score2()).replace(' (away)', '') === before.replace(' (away)', ''), `…as the same pupil, with the same score (${before})`);
  for (let round = 0; round < 6; round++) for (const { p } of phones) await tapOnce(p);

  // The server killed mid-lesson and resumed on the same port: the same code, every page back
  // within 10 s without a reload, the curve holding every game.
  await projector.waitForTimeout(600);
  const finished = await gamesOn(projector);
  s.server.kill('SIGKILL');
  await projector.waitForTimeout(1500);
  check(await within(projector, () => /reconnecting/.test(document.getElementById('link')?.textContent || '')), 'the projector says it is reconnecting');
  s = await startServer(host, ['--resume']);
  check(s.code === code, `the resumed lesson keeps the join code (${s.code})`);
  const t0 = Date.now();
  const pagesBack = await Promise.all([projector, ...phones.map(x => x.p)].map(p =>
    within(p, () => /back/.test(document.getElementById('link')?.textContent || '') || document.getElementById('link')?.style.display === 'none', null, 10000)));
  check(pagesBack.every(Boolean), `every page is back within 10 s of the restart, without a reload (${Date.now() - t0} ms)`);
  await projector.waitForTimeout(800);
  const curve = await projector.evaluate(() => (document.querySelector('#curve polyline')?.getAttribute('points') || '').trim().split(' ').length - 1);
  // A game may end between the count read and the kill (the pupils play on): none is lost, and
  // the curve has every one the projector counts.
  const after = await gamesOn(projector);
  check(after >= finished && curve === after, `the curve holds every finished game (${curve} of ${after}; ${finished} before the restart)`);
  check((await first.locator('#who').innerText()).includes(name), 'a phone is the same pupil after the restart');

  // The class is the machine: every pupil holds boxes; the holder taps; the instruction names
  // the box's own arrow.
  await projector.click('#deal');
  for (const { p } of phones) await p.waitForSelector('#boxes .mb-box', { timeout: 10000 });
  const held = await Promise.all(phones.map(({ p }) => p.locator('#boxes .mb-box').count()));
  check(held.reduce((a, b) => a + b, 0) === 304, `the six pupils hold MENACE's 304 boxes (${held.join(', ')})`);
  await projector.click('#relay-game');
  await projector.waitForSelector('#relay-game', { state: 'hidden', timeout: 10000 });
  let drew = 0;
  for (let round = 0; round < 60 && !(await projector.locator('#relay-game').isVisible()); round++) {
    for (const { p } of phones) {
      if (await p.locator('#draw').isVisible()) {
        if (!drew) await p.screenshot({ path: join(shots, 'class-phone-draw.png') });
        await p.locator('#draw').tap();
        drew++;
      }
    }
    await projector.waitForTimeout(100);
  }
  const relaySaid = await projector.locator('#relay-said').innerText();
  check(drew > 0 && /game \d+: the class \(the machine\) (won|drew|lost)/.test(relaySaid), `pupils drew ${drew} beads and the class's game ended: "${relaySaid}"`);
  let told = [];
  for (let i = 0; i < 30 && !told.some(t => /[Bb]ox \d+: (take|add|leave)/.test(t)); i++) {
    await projector.waitForTimeout(100);
    told = await Promise.all(phones.map(({ p }) => p.locator('#told').innerText()));
  }
  check(told.some(t => /[Bb]ox \d+: (take|add|leave)/.test(t)), `a holder is told what to do with their box: "${told.find(t => /[Bb]ox \d+:/.test(t))}"`);
  await projector.screenshot({ path: join(shots, 'class-projector-machine.png') });
  // A holder who does not tap: the teacher draws for them.
  await projector.click('#relay-game');
  check(await within(projector, () => !document.getElementById('draw-for').hidden, null, 5000), 'the projector offers to draw for the pupil whose box waits');
  const waitingSaid = await projector.locator('#relay-said').innerText();
  const movesBefore = await projector.locator('#relay-moves').innerText();
  await projector.click('#draw-for');
  check(await within(projector, ([said, moves]) => document.getElementById('relay-said').textContent !== said
    || document.getElementById('relay-moves').textContent !== moves, [waitingSaid, movesBefore]),
    `the teacher draws for a pupil who does not tap ("${waitingSaid}" → "${await projector.locator('#relay-said').innerText()}")`);
  projector.on('dialog', d => d.accept());
  await projector.click('#collect');
  await projector.click('#end');
  check(await within(phones[2].p, () => document.getElementById('said').textContent.includes('lesson is over')), 'ending the lesson tells the pupils');
  check(await within(projector, () => document.getElementById('save').disabled), 'after the end the projector\'s buttons say the lesson is over');
  const exit = s.server.exitCode ?? await new Promise(done => { s.server.once('exit', done); setTimeout(() => done('still running'), 15000); });
  const last = s.said.find(l => l.startsWith('the lesson is over'));
  check(exit === 0 && /the machine saved to/.test(last || ''), `the server ends and says the machine is saved (${exit}: "${last}")`);
  air.close();
} finally {
  await browser.close();
  s.server.kill();
  // The lesson's files go with the test (a CI machine runs it often).
  // What the server said and logged, where a check failed (the files go with the test).
  if (failing()) {
    const log = `${save}.server.log`;
    console.log(`the server said:\n${serverSaid.join('\n')}\n${log}:\n${existsSync(log) ? readFileSync(log, 'utf8') : '(none)'}`);
  }
  rmSync(scratch, { recursive: true, force: true });
}
finish('class');
