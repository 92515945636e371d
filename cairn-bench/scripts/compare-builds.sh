#!/bin/sh
# Compares two builds of Cairn on the no-regression set, alternating them in the same minutes:
#   compare-builds.sh BEFORE_ROOT AFTER_ROOT [PAIRS] [OUT_DIR]
# Each root is a checkout whose ./cairn builds and runs the bench. Pair i runs BEFORE then AFTER
# when i is odd, AFTER then BEFORE when even, so that neither build always runs second. Each run
# is one JSON file in OUT_DIR (default /tmp/cairn-compare); compare-builds.py summarises them
# (median of each figure per build, and the ratio AFTER/BEFORE). Nothing else should run on the
# machine meanwhile.
set -eu
before=$1
after=$2
pairs=${3:-5}
out=${4:-/tmp/cairn-compare}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # build label pair
  root=$1 label=$2 i=$3
  "$root/cairn" bench --n 3M --stores pile,mapped --dir "$work/d" --fresh --json \
    > "$out/$label-$i-load.json"
  "$root/cairn" bench --commits --threads 16 --seconds 5 --dir "$work/d" --fresh --json \
    > "$out/$label-$i-commits.json"
  "$root/cairn" bench --n 3M --stores pile --reopen --no-drop-caches --dir "$work/d" --fresh \
    --json > "$out/$label-$i-reopen.json"
  "$root/cairn" bench --kind person --n 1M --stores pile --json > "$out/$label-$i-person.json"
}

i=1
while [ "$i" -le "$pairs" ]; do
  if [ $((i % 2)) -eq 1 ]; then
    run "$before" before "$i"; run "$after" after "$i"
  else
    run "$after" after "$i"; run "$before" before "$i"
  fi
  echo "pair $i of $pairs done" >&2
  i=$((i + 1))
done
python3 "$(dirname "$0")/compare-builds.py" "$out"
