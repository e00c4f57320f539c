// What the browser tests share: Debian's headless chromium as this machine can run it, and the
// checks with their count of failures.

import { chromium } from 'playwright-core';

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

let failures = 0;
export function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}
export function failed() { failures++; }
/// Whether a check has failed so far.
export function failing() { return failures > 0; }

/// Ends the test: its verdict, and the exit status.
export function finish(name) {
  if (failures) {
    console.log(`${failures} failed`);
    process.exit(1);
  }
  console.log(`the ${name} test passed`);
}
