#!/usr/bin/env bash
# The Windows installer (an MSI) from a built matchbox.exe and the browser page, made with wixl
# (Debian's msitools; installed when missing). Used by the release workflow and by
# scripts/windows-check.sh, which installs the MSI under Wine and runs the program it put in place.
#
#   scripts/msi.sh EXE PAGE_DIR VERSION OUT.msi
#
# VERSION may carry the tag's `v` and a pre-release (`v0.2.0-rc.1`): an MSI's version is three
# numbers, so `0.2.0` is what Windows shows.
set -euo pipefail
if [ $# -ne 4 ]; then
    echo "usage: scripts/msi.sh EXE PAGE_DIR VERSION OUT.msi" >&2
    exit 2
fi
exe=$(realpath "$1")
page=$(realpath "$2")
out=$(realpath -m "$4")
version=${3#v}
version=${version%%[-+]*}
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    echo "scripts/msi.sh: version '$3' is not N.N.N (an MSI's version is three numbers)" >&2
    exit 2
fi
[ -f "$exe" ] || { echo "scripts/msi.sh: $exe: no such program" >&2; exit 2; }
[ -f "$page/index.html" ] || { echo "scripts/msi.sh: $page: no index.html (build the page: web/build.sh)" >&2; exit 2; }
if ! command -v wixl > /dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends wixl > /dev/null
fi
cd "$(dirname "$0")/.."
# wixl takes sources relative to the folder it runs in.
exe=$(realpath --relative-to=. "$exe")
page=$(realpath --relative-to=. "$page")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The page's files, one component each, under the install folder's page\.
(cd "$page" && find . -type f | sed 's|^\./||' | sort) |
    sed "s|^|$page/|" |
    wixl-heat --prefix "$page/" --directory-ref PAGEDIR --component-group Page \
        --var var.PageDir > "$work/page.wxs"
wixl --arch x64 -D Version="$version" -D Exe="$exe" -D PageDir="$page" \
    -o "$out" installer/matchbox.wxs "$work/page.wxs"
echo "$out: matchbox $version for Windows (x64), $(stat -c %s "$out") bytes"
