#!/bin/bash
# Play pairs FIRST..LAST of plan.md (default 1..100), skipping finished ones (a
# summary.json without a .partial); a pair cut off before its end is removed and played
# again from the start. Stops between pairs when the file STOP exists here.
# Run from /work/main: benchmarks/matches/andantino-expert-31/run.sh [FIRST] [LAST]
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
FIRST=${1:-1}
LAST=${2:-100}
cd /work/main
for i in $(seq "$FIRST" "$LAST"); do
    [ -e "$HERE/STOP" ] && { echo "stopped before pair $i"; exit 0; }
    out=$(printf "%s/pairs/pair-%03d" "$HERE" "$i")
    if [ -f "$out/summary.json" ] && [ ! -e "$out/summary.json.partial" ]; then
        continue
    fi
    rm -rf "$out"
    mkdir -p "$HERE/pairs"
    position=$(sed -n "${i}p" "$HERE/openings.txt")
    echo "$(date -u +%FT%TZ) pair $i"
    PYTHONPATH=/work/wt/old/src .venv/bin/python -c "from hexgames.cli import main; main()" \
        match andantino --rules single_adjacency=on -p alphabeta:time=1 \
        -p "py-solver:time=5,fallback=py-alphabeta" -n 2 --position "$position" \
        --seed $((3100 + i)) --jobs 2 --out "$out" > "$out.log" 2>&1
    status=$?
    mv "$out.log" "$out/match.log" 2>/dev/null
    [ $status -eq 0 ] || { echo "pair $i: exit status $status"; rm -rf "$out"; exit 1; }
done
echo "$(date -u +%FT%TZ) done"
