// The page's speed on a slow school laptop: headless chromium with its CPU throttled (DevTools'
// Emulation.setCPUThrottlingRate, 4× unless told), at a projector's size and a phone's, for HER
// and a learning MENACE at 10, 100 games a second and flat out: the games a second and frames a
// second the page's own meter reads after a few seconds. A benchmark, not a test: it prints a
// table (and writes it as JSON where asked), and fails only if the page does not run.
//
//   node web/test/speed.mjs [--throttle 4] [--json figures.json]

import { launch, check, failed, finish } from './harness.mjs';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const arg = name => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const throttle = Number(arg('--throttle') ?? 4);
const port = 20000 + Math.floor(Math.random() * 2000);
const base = `http://127.0.0.1:${port}/`;
const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '-d', dist], { stdio: 'ignore' });
const browser = await launch();

const only = arg('--only');
const sizes = [['projector', { width: 1920, height: 1080 }, false], ['phone', { width: 390, height: 844 }, true]];
const games = [['HER', ''], ['MENACE', 'game=tictactoe&']];
const speeds = ['10', '100', 'flat-out'];
const rows = [];
try {
  for (const [where, viewport, touch] of sizes.filter(s => !only || s[0] === only)) {
    for (const [name, game] of games) {
      for (const speed of speeds) {
        const page = await browser.newPage({ viewport, hasTouch: touch, isMobile: touch });
        page.on('pageerror', e => { console.log('page error:', e.message); failed(); });
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
        for (let i = 0; i < 50; i++) {
          try { await page.goto(`${base}?${game}speed=${speed}&seed=1`); break; } catch { await page.waitForTimeout(100); }
        }
        // The meter reads over the last 4 s: wait past that.
        await page.waitForTimeout(6000);
        const rate = await page.locator('#rate').innerText();
        const g = Number(rate.match(/([\d.]+) games\/s/)?.[1] ?? NaN);
        const f = Number(rate.match(/([\d.]+) frames\/s/)?.[1] ?? NaN);
        check(Number.isFinite(g) && Number.isFinite(f), `${where} ${name} at ${speed}: ${rate}`);
        rows.push({ where, viewport: `${viewport.width}×${viewport.height}`, game: name, speed, games_per_s: g, frames_per_s: f, throttle });
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
  server.kill();
}
console.log(`\nCPU throttled ${throttle}×:`);
console.log('where      game    speed      games/s   frames/s');
for (const r of rows) {
  console.log(`${r.where.padEnd(10)} ${r.game.padEnd(7)} ${r.speed.padEnd(9)} ${String(r.games_per_s).padStart(9)} ${String(r.frames_per_s).padStart(9)}`);
}
if (arg('--json')) writeFileSync(arg('--json'), JSON.stringify(rows, null, 1) + '\n');
finish('speed');
