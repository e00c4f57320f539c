#!/usr/bin/env bash
# Builds the browser page into web/dist/: the library and the page for wasm32, wasm-bindgen's
# JavaScript glue, and index.html. Any static host serves the folder:
#   python3 -m http.server -d web/dist
set -euo pipefail
cd "$(dirname "$0")/.."
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
# wasm-bindgen-cli at the version the wasm-bindgen crate is locked to (built from crates.io once).
want=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
    cargo install wasm-bindgen-cli --version "$want"
fi
cargo build -p matchbox-web -p matchbox-web-convert --target wasm32-unknown-unknown --profile web
rm -rf web/dist
mkdir -p web/dist
for module in matchbox_web matchbox_web_convert; do
    wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section \
        --out-dir web/dist "target/wasm32-unknown-unknown/web/$module.wasm"
done
cp web/static/index.html web/dist/
# The fonts of PNG charts and labels, fetched by the page when first needed.
mkdir -p web/dist/fonts
cp src/chart/fonts/DejaVuSans.ttf src/chart/fonts/DejaVuSans-Bold.ttf \
    src/chart/fonts/LICENSE-DejaVu.txt web/dist/fonts/
for f in web/dist/matchbox_web_bg.wasm web/dist/matchbox_web.js web/dist/index.html \
    web/dist/matchbox_web_convert_bg.wasm web/dist/matchbox_web_convert.js; do
    printf '%-32s %8d bytes, %8d gzipped\n' "$(basename "$f")" "$(wc -c < "$f")" "$(gzip -9c "$f" | wc -c)"
done
