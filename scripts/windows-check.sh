#!/usr/bin/env bash
# matchbox on Windows, checked here: the program built for x86_64-pc-windows-gnu (rustup's target,
# Debian's MinGW linker) and run under Debian's Wine beside the Linux build, command by command:
# `train`, `experiment`, `boxes --labels`, `plot` and a save/load round trip must give the same
# JSON and the same files, byte for byte. Also: a machine file with CRLF line ends, and paths
# with backslashes and a drive letter. Installs what it needs when missing.
#
#   scripts/windows-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
if ! rustup target list --installed | grep -qx x86_64-pc-windows-gnu; then
    rustup target add x86_64-pc-windows-gnu
fi
if ! command -v wine > /dev/null || ! command -v x86_64-w64-mingw32-gcc > /dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        wine wine64 gcc-mingw-w64-x86-64 > /dev/null
fi
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
cargo build --release --target x86_64-pc-windows-gnu
cargo build --release
export WINEDEBUG=-all WINEPREFIX="${WINEPREFIX:-$HOME/.wine-matchbox}"
linux="$root/target/release/matchbox"
windows="$root/target/x86_64-pc-windows-gnu/release/matchbox.exe"
# Debian's Wine 8 runs 64-bit programs with wine64, and lacks bcryptprimitives.dll, where Rust's
# standard library takes its random seeds from (ProcessPrng, Windows 10 and later): a stand-in
# beside the program passes the call to RtlGenRandom. A real Windows has the DLL.
wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
stub=$(dirname "$windows")/bcryptprimitives.dll
if [ ! -f "$stub" ]; then
    cat > "$root/target/bcryptprimitives.c" <<'C'
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!SystemFunction036(data, n)) return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
C
    x86_64-w64-mingw32-gcc -shared -O2 -o "$stub" "$root/target/bcryptprimitives.c" -ladvapi32
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/linux" "$work/windows"
failed=0

# Runs one command in each folder (the same relative file names), stdout to out.txt.
both() {
    (cd "$work/linux" && "$linux" "$@" > out.txt)
    (cd "$work/windows" && "$wine" "$windows" "$@" > out.txt)
}

# The two folders hold the same files, byte for byte.
same() {
    local what=$1
    if diff -r "$work/linux" "$work/windows" > "$work/diff.txt"; then
        echo "same   $what"
    else
        echo "DIFFER $what"
        head -20 "$work/diff.txt"
        failed=1
    fi
}

both train hexapawn --games 300 --seed 3 --json --csv games.csv --save m.yaml
same "train: JSON, CSV and the machine saved"
both train hexapawn --boxes m.yaml --games 100 --json --save m2.mbx
same "a saved machine loaded, trained on, saved in the binary format"
both experiment hexapawn --runs 40 --games 30 --seed 2 --json --csv runs.csv
same "experiment: JSON and CSV"
both boxes hexapawn --labels her.svg --json
same "boxes --labels: the SVG pages and the PDF"
both plot games.csv --chart score --out score.svg
same "plot: the chart as SVG"
# A machine file with CRLF line ends, and a path with backslashes and a drive letter.
sed 's/$/\r/' "$work/linux/m.yaml" > "$work/windows/crlf.yaml"
cp "$work/linux/m.yaml" "$work/linux/crlf.yaml"
(cd "$work/linux" && "$linux" boxes hexapawn --boxes crlf.yaml --json > out.txt)
(cd "$work/windows" && "$wine" "$windows" boxes hexapawn --boxes "Z:${work//\//\\}\\windows\\crlf.yaml" --json > out.txt)
sed -i 's/\r$//' "$work/windows/crlf.yaml"
sed -i 's#"Z:[^"]*crlf.yaml"#"crlf.yaml"#; s#Z:[^ "]*crlf.yaml#crlf.yaml#g' "$work/windows/out.txt"
sed -i 's#"crlf.yaml"#"crlf.yaml"#' "$work/linux/out.txt"
same "a CRLF machine file read by a path with backslashes and a drive letter"

# The MSI: made from the program and the page (built when missing), installed by Wine's msiexec,
# the installed program run from the Start menu's "matchbox terminal" script; then a newer
# version installed over it (it replaces the older: one UpgradeCode), and uninstalled. The last
# MSI is kept in target/ so that the next run first uninstalls what this one left.
[ -f web/dist/index.html ] || web/build.sh
last="$root/target/windows-check.msi"
installed="$WINEPREFIX/drive_c/Program Files/matchbox"
if [ -f "$last" ]; then "$wine" msiexec /x "$(winepath -w "$last")" /qn || true; fi
rm -f "$installed/bcryptprimitives.dll"
scripts/msi.sh "$windows" web/dist 0.0.1 "$work/old.msi" > /dev/null
scripts/msi.sh "$windows" web/dist 0.0.2 "$last" > /dev/null
"$wine" msiexec /i "$(winepath -w "$work/old.msi")" /qn
cp "$stub" "$installed/"
printf '@echo off\r\ncall "C:\\Program Files\\matchbox\\matchbox-terminal.cmd" > nul\r\nmatchbox count hexapawn --json\r\n' > "$work/run.cmd"
rm -rf "$work/linux" "$work/windows" && mkdir -p "$work/linux" "$work/windows"
(cd "$work/linux" && "$linux" count hexapawn --json > out.txt)
"$wine" cmd /c "$(winepath -w "$work/run.cmd")" | tr -d '\r' > "$work/windows/out.txt"
same "the MSI installed: the program run as \`matchbox\` from the Start menu's terminal"
if [ -f "$installed/page/index.html" ] && [ -f "$installed/page/matchbox_web_bg.wasm" ]; then
    echo "same   the MSI installed the page beside the program"
else
    echo "DIFFER the MSI did not install the page beside the program"
    failed=1
fi
rm "$installed/bcryptprimitives.dll"
"$wine" msiexec /i "$(winepath -w "$last")" /qn
versions=$("$wine" reg query 'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall' /s 2>/dev/null |
    tr -d '\r' | grep -c 'DisplayName.*REG_SZ.*matchbox$' || true)
if [ "$versions" = 1 ] && [ -f "$installed/matchbox.exe" ]; then
    echo "same   a newer MSI replaced the older (one matchbox installed)"
else
    echo "DIFFER a newer MSI left $versions matchbox installs"
    failed=1
fi
"$wine" msiexec /x "$(winepath -w "$last")" /qn
if [ -e "$installed/matchbox.exe" ]; then
    echo "DIFFER the MSI's uninstall left matchbox.exe"
    failed=1
else
    echo "same   the MSI uninstalled"
fi
exit $failed
