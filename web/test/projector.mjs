// The projector's page during a lesson, measured: headless chromium at 1920×1080 opens the
// teacher's address and, for a few seconds, counts the frames the page draws (its animation
// frames), the class's updates it shows (each new score line), and its longest frame. Run by
// `cargo bench --bench class` beside its simulated pupils; prints `measuring` once the page is
// up (the pupils start then), and then one JSON line.
//
//   node web/test/projector.mjs TEACHER_URL [--seconds 10] [--throttle 1]

import { launch } from './harness.mjs';

const arg = name => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const url = process.argv[2];
const seconds = Number(arg('--seconds') ?? 10);
const throttle = Number(arg('--throttle') ?? 1);
if (!url || !url.startsWith('http://127.0.0.1')) {
  console.error('usage: node web/test/projector.mjs http://127.0.0.1:PORT/teacher?token=… [--seconds 10] [--throttle 1]');
  process.exit(2);
}
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  await page.goto(url);
  await page.waitForSelector('#machine .tile', { timeout: 20000 });
  // The caller starts its pupils on this line: the figures are of the lesson under way.
  console.log('measuring');
  const figures = await page.evaluate(secs => new Promise(done => {
    let frames = 0, updates = 0, longest = 0, last = performance.now();
    const score = document.getElementById('score');
    let seen = score.textContent;
    const t0 = performance.now();
    const tick = now => {
      frames++;
      longest = Math.max(longest, now - last);
      last = now;
      if (score.textContent !== seen) { seen = score.textContent; updates++; }
      if (now - t0 < secs * 1000) requestAnimationFrame(tick);
      else done({ frames_per_s: frames / secs, updates_per_s: updates / secs, longest_frame_ms: longest, score: seen });
    };
    requestAnimationFrame(tick);
  }), seconds);
  console.log(JSON.stringify({ throttle, ...figures }));
} finally {
  await browser.close();
}
