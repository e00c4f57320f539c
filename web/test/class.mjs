// The browser test of `matchbox class` (run by .ci/run): the server started as a teacher starts
// it, the projector's page at 1920×1080 and eight pupils' phones (390×844, touch) in Debian's
// headless chromium, the pupils playing the class's machine by taps. Screenshots of the projector
// and a phone go to web/screenshots/ when asked (UPDATE_SCREENSHOTS=1), else to a temporary folder.
//
//   node web/test/class.mjs [path/to/matchbox]

import { launch, check, failed, finish } from './harness.mjs';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const cli = process.argv[2] || join(root, 'target', 'debug', 'matchbox');
const scratch = mkdtempSync(join(tmpdir(), 'matchbox-class-'));
const shots = process.env.UPDATE_SCREENSHOTS ? join(root, 'web', 'screenshots') : scratch;


const server = spawn(cli, ['class', 'tictactoe', '--listen', '127.0.0.1:0', '--seed', '7', '--save', join(scratch, 'lesson.yaml')], { stdio: ['ignore', 'pipe', 'ignore'] });
const lines = createInterface({ input: server.stdout });
const said = [];
for await (const line of lines) { said.push(line); if (said.length === 2) break; }
lines.on('line', () => {});
const pupils = said[0].match(/(http:\/\/[^/]+\/) and type the code (\w+)/);
const teacher = said[1].match(/(http:\S+token=[0-9a-f]+)/);
check(pupils && teacher, `the server prints the pupils' address, the code and the teacher's address`);
const [base, code] = [pupils[1], pupils[2]];

const browser = await launch();
try {
  // Without the token the projector is refused.
  const stranger = await browser.newPage();
  const refused = await stranger.goto(base + 'projector');
  check(refused.status() === 403, 'the projector needs the teacher\'s address');
  await stranger.close();
  const projector = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await projector.goto(teacher[1]);
  // The page draws the class's first message on its next animation frame.
  const titled = await projector.waitForFunction(() => document.getElementById('title').textContent.includes('learns'), null, { timeout: 5000 }).then(() => true, () => false);
  check(titled && await projector.locator('#title').innerText().then(t => t.includes('MENACE (x) learns tictactoe')), 'the projector shows the class\'s machine');
  const phones = [];
  for (let i = 0; i < 8; i++) {
    const p = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await p.goto(base);
    await p.fill('#code', code.toLowerCase());
    await p.tap('#go');
    phones.push(p);
  }
  await phones[0].waitForSelector('#moves button', { timeout: 10000 });
  check(await phones[0].locator('#who').innerText().then(t => /You are \w+ \w+ \d, playing o/.test(t)), 'a pupil gets a name and plays O');
  const gamesOn = async () => Number((await projector.locator('#score').innerText()).match(/games ([\d,]+)/)?.[1].replace(/,/g, '') ?? 0);
  const first = await gamesOn();
  let outcome = '';
  for (let round = 0; round < 40; round++) {
    for (const p of phones) {
      if (await p.locator('#again').isVisible()) {
        outcome ||= await p.locator('#said').innerText();
        await p.locator('#again').tap();
        continue;
      }
      const moves = p.locator('#moves button');
      const n = await moves.count();
      if (n) await moves.nth(Math.floor(Math.random() * n)).tap();
    }
  }
  await projector.waitForTimeout(500);
  const games = await gamesOn();
  check(games > first && games >= 8, `the projector's game count rises as the pupils play (${first} → ${games})`);
  check(/(took|gave (the machine|it)) \d+ beads?|changed no beads/.test(outcome), `a pupil is told what the machine learned: "${outcome}"`);
  check(await projector.locator('#curve polyline').count() === 1, "the projector draws the machine's learning curve");
  check(/the boxes it used: (box \d+ \S+ [+-]\d+|no bead changed)/.test(await projector.locator('#last').innerText()), `the projector names the boxes the last game used: "${await projector.locator('#last').innerText()}"`);
  const tiles = await projector.locator('#machine .tile').count();
  check(tiles === 304, `the projector shows the whole machine, box by box (${tiles} boxes)`);
  const used = await projector.locator('#used .mb-box.used').count();
  const hot = await projector.locator('#machine .tile.hot').count();
  check(used > 0 && hot > 0, `the projector shows the boxes the last game drew from (${used}, ${hot} outlined)`);
  const rows = await projector.locator('#pupils tr').count();
  check(rows === 8, `the leaderboard lists the eight pupils (${rows})`);
  // A wrong code does not join.
  const intruder = await browser.newPage();
  await intruder.goto(base);
  await intruder.fill('#code', 'WRONG');
  await intruder.click('#go');
  await intruder.waitForTimeout(500);
  check((await intruder.locator('#error').innerText()).includes('Could not join'), 'a wrong code is refused');
  await phones[0].screenshot({ path: join(shots, 'class-phone.png') });
  await projector.screenshot({ path: join(shots, 'class-projector.png') });
  // The class is the machine: the teacher deals MENACE's boxes and starts a game; the pupil
  // whose box comes up is asked to draw, and taps.
  await projector.click('#deal');
  for (const p of phones) await p.waitForSelector('#boxes .mb-box', { timeout: 10000 });
  const held = await Promise.all(phones.map(p => p.locator('#boxes .mb-box').count()));
  check(held.reduce((a, b) => a + b, 0) === 304, `the eight pupils hold MENACE's 304 boxes (${held.join(', ')})`);
  await projector.click('#relay-game');
  // The button hides once the projector hears the game is under way.
  await projector.waitForSelector('#relay-game', { state: 'hidden', timeout: 10000 });
  let drew = 0;
  for (let round = 0; round < 60 && !(await projector.locator('#relay-game').isVisible()); round++) {
    for (const p of phones) {
      if (await p.locator('#draw').isVisible()) {
        if (drew === 0) await p.screenshot({ path: join(shots, 'class-phone-draw.png') });
        await p.locator('#draw').tap();
        if (drew === 0) {
          // The tap's answer: the bead leaves the box on the phone, and the phone says which.
          await p.waitForSelector('#boxes .mb-flying', { timeout: 5000 });
          const said = await p.locator('#told').innerText();
          const row = await p.locator('#boxes .mb-row.drawn').innerText();
          check(/^You drew a bead of \S+ from box \d+.*: the machine plays \S+\.$/.test(said) && said.includes(`of ${row.trim().split(' ')[0]} `),
            `the pupil sees the bead they drew leave the box: "${said}" (the row "${row.trim()}")`);
          await p.waitForTimeout(500);
          await p.screenshot({ path: join(shots, 'class-phone-bead.png') });
        }
        drew++;
      }
    }
    await projector.waitForTimeout(100);
  }
  const relaySaid = await projector.locator('#relay-said').innerText();
  check(drew > 0 && /game \d+: the class \(the machine\) (won|drew|lost)/.test(relaySaid), `pupils drew ${drew} beads and the class's game ended: "${relaySaid}"`);
  // A phone shows the next message once the bead it shows leaving has landed (1.3 s).
  let told = [];
  for (let i = 0; i < 30 && !told.some(t => /[Bb]ox \d+: (take|add|.* stays)/.test(t)); i++) {
    if (i) await projector.waitForTimeout(100);
    told = await Promise.all(phones.map(p => p.locator('#told').innerText()));
  }
  check(told.some(t => /[Bb]ox \d+: (take|add|.* stays)/.test(t)), `a holder is told what their box learned: "${told.find(t => /[Bb]ox \d+:/.test(t))}"`);
  await projector.screenshot({ path: join(shots, 'class-projector-machine.png') });
  // The teacher's controls: the class's game against the random player; the boxes collected;
  // the machine turned round (the pupils play X against a new MENACE for O, and the machine that
  // was is kept beside the lesson's file).
  projector.on('dialog', d => d.accept());
  const text = id => projector.locator('#' + id).innerText();
  await projector.click('#opponent');
  await projector.waitForFunction(() => document.getElementById('opponent').textContent.includes('random'), null, { timeout: 10000 });
  check((await text('opponent')).includes('against the random player'), `the class's game is against the random player: "${await text('opponent')}"`);
  check(await projector.locator('#side').isDisabled(), 'the machine cannot be turned round while the pupils hold its boxes');
  await projector.click('#collect');
  await projector.waitForFunction(() => !document.getElementById('side').disabled, null, { timeout: 10000 });
  await projector.click('#side');
  await projector.waitForFunction(() => document.getElementById('title').textContent.includes('(o)'), null, { timeout: 10000 });
  await phones[0].waitForFunction(() => /playing x/.test(document.getElementById('who').textContent), null, { timeout: 10000 });
  check(/machine before is kept in \S+lesson-2\.yaml/.test(await text('last')), `the projector says where the machine that was is kept: "${await text('last')}"`);
  check(existsSync(join(scratch, 'lesson-2.yaml')), 'the machine that was is in lesson-2.yaml');
  await phones[0].waitForSelector('#moves button', { timeout: 10000 });
  await phones[0].locator('#moves button').first().tap();
  await projector.screenshot({ path: join(shots, 'class-projector-controls.png') });
  // The teacher ends the lesson; the phones are told.
  await projector.click('#end');
  await phones[1].waitForTimeout(800);
  check((await phones[1].locator('#said').innerText()).includes('the lesson is over'), 'ending the lesson tells the pupils');
} finally {
  await browser.close();
  server.kill();
}
finish('class');
