#!/bin/sh
# Compares two builds of Cairn on the no-regression set, alternating them in the same minutes:
#   compare-builds.sh BEFORE_ROOT AFTER_ROOT [PAIRS] [OUT_DIR]
# Each root is a checkout whose ./cairn builds and runs the bench. Pair i runs BEFORE then AFTER
# when i is odd, AFTER then BEFORE when even, so that neither build always runs second. Each run
# is one JSON file in OUT_DIR (default /tmp/cairn-compare); compare-builds.py summarises them
# (median of each figure per build, and the ratio AFTER/BEFORE). Nothing else should run on the
# machine meanwhile. N (default 3M) and PERSON_N (default 1M) set the sizes; ONLY (a list of
# load, commits, reopen, person) runs a subset; PERSON_FLAGS adds flags to the person run (say
# "--get-order sequential", whose gets are bound by decoding rather than by cache misses).
set -eu
before=$1
after=$2
pairs=${3:-5}
out=${4:-/tmp/cairn-compare}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

n=${N:-3M}
person_n=${PERSON_N:-1M}
only=${ONLY:-load commits reopen person}
wanted() { case " $only " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

run() { # build label pair
  root=$1 label=$2 i=$3
  if wanted load; then
    "$root/cairn" bench --n "$n" --stores pile,mapped --dir "$work/d" --fresh --json \
      > "$out/$label-$i-load.json"
  fi
  if wanted commits; then
    "$root/cairn" bench --commits --threads 16 --seconds 5 --dir "$work/d" --fresh --json \
      > "$out/$label-$i-commits.json"
  fi
  if wanted reopen; then
    "$root/cairn" bench --n "$n" --stores pile --reopen --no-drop-caches --dir "$work/d" \
      --fresh --json > "$out/$label-$i-reopen.json"
  fi
  if wanted person; then
    # shellcheck disable=SC2086 # PERSON_FLAGS is a list of flags
    "$root/cairn" bench --kind person --n "$person_n" --stores pile ${PERSON_FLAGS:-} --json \
      > "$out/$label-$i-person.json"
  fi
}

. "$(dirname "$0")/pairs.sh"
run_pairs "$before" "$after" "$pairs"
python3 "$(dirname "$0")/compare-builds.py" "$out"
