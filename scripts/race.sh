#!/usr/bin/env bash
# Races whole commands side by side, as docs/racing.md asks: each command once a round, the rounds
# interleaved (the machine is noisy), pinned to one processor, on one thread; then, for each
# command, the median and the minimum of its user seconds, and against the first command the
# median of the rounds' ratios (the first's time over this one's: above 1, this one is faster).
#
#   scripts/race.sh ROUNDS LABEL=COMMAND [LABEL=COMMAND ...]
#   scripts/race.sh 12 "herbench=herbench 400000" \
#     "matchbox=target/release/matchbox experiment hexapawn --symmetry full --runs 400000 --games 50 --seed 1 --json"
#
# CPU=n pins to processor n (default 1, or 0 on a one-processor machine). Every run's times are
# kept in race.raw (or RAW=file). Needs GNU time (/usr/bin/time) and taskset.
set -euo pipefail

if [[ $# -lt 2 || ! $1 =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 ROUNDS LABEL=COMMAND [LABEL=COMMAND ...]" >&2
    exit 2
fi
rounds=$1
shift
for spec in "$@"; do
    if [[ $spec != *=* || -z ${spec%%=*} ]]; then
        echo "$0: '$spec' is not LABEL=COMMAND" >&2
        exit 2
    fi
done
for tool in /usr/bin/time taskset; do
    command -v "$tool" >/dev/null || {
        echo "$0: $tool is needed" >&2
        exit 2
    }
done
cpu=${CPU:-$(($(nproc) > 1 ? 1 : 0))}
raw=${RAW:-race.raw}
times=$(mktemp)
trap 'rm -f "$times"' EXIT
: >"$raw"

for round in $(seq "$rounds"); do
    for spec in "$@"; do
        label=${spec%%=*}
        # The command is split into words on spaces, as typed.
        read -r -a cmd <<<"${spec#*=}"
        if ! /usr/bin/time -f "%U %e" -o "$times" taskset -c "$cpu" \
            env RAYON_NUM_THREADS=1 "${cmd[@]}" >/dev/null 2>&1; then
            echo "$0: round $round: '$label' failed: ${spec#*=}" >&2
            exit 1
        fi
        echo "$round $label $(tail -n 1 "$times")" >>"$raw"
    done
done

# Median of the numbers on standard input, one a line.
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }

first=${1%%=*}
lscpu 2>/dev/null | grep 'Model name' | sed 's/  */ /g' || true
printf '%-16s %8s %8s %8s %8s %s\n' command median min "wall med" "wall min" "ratio to $first"
for spec in "$@"; do
    label=${spec%%=*}
    user=$(awk -v l="$label" '$2 == l {print $3}' "$raw")
    wall=$(awk -v l="$label" '$2 == l {print $4}' "$raw")
    ratio=$(awk -v a="$first" -v b="$label" '
        $2 == a {t[$1] = $3} $2 == b {u[$1] = $3}
        END {for (r in t) if (u[r] > 0) print t[r] / u[r]}' "$raw" | median)
    printf '%-16s %8.3f %8.3f %8.3f %8.3f %.2fx\n' "$label" \
        "$(median <<<"$user")" "$(sort -g <<<"$user" | head -n 1)" \
        "$(median <<<"$wall")" "$(sort -g <<<"$wall" | head -n 1)" "$ratio"
done
