#!/bin/sh
# Compares two builds of Cairn on JMH benchmarks, alternating them in the same minutes:
#   compare-jmh.sh BEFORE_JAR AFTER_JAR PATTERN [PAIRS] [OUT_DIR]
# Each jar is a build's cairn-bench/target/benchmarks.jar (./mvnw -q -pl cairn-bench -am package
# -DskipTests in its checkout); PATTERN is a JMH regular expression over benchmark names, which
# must be the same code in both builds (the package may differ: results are matched by the name
# after the package). Pair i runs BEFORE then AFTER when i is odd, AFTER then BEFORE when even.
# Each run is one JMH JSON file in OUT_DIR (default /tmp/cairn-compare-jmh); the summary prints,
# per benchmark, each build's median score and the median of the pairs' AFTER/BEFORE ratios.
# JMH_FLAGS (default "-f 1 -wi 2 -i 5") sets forks and iterations. Nothing else should run on the
# machine meanwhile.
set -eu
before=$1
after=$2
pattern=$3
pairs=${4:-3}
out=${5:-/tmp/cairn-compare-jmh}
flags=${JMH_FLAGS:--f 1 -wi 2 -i 5}
mkdir -p "$out"
java_bin=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java

run() { # jar label pair
  # shellcheck disable=SC2086 # flags is a list of flags
  "$java_bin" --sun-misc-unsafe-memory-access=allow -jar "$1" "$pattern" $flags \
    -rf json -rff "$out/$2-$3.json" > "$out/$2-$3.log"
}

. "$(dirname "$0")/pairs.sh"
run_pairs "$before" "$after" "$pairs"
python3 - "$out" "$pairs" <<'PY'
import json, statistics, sys
out, pairs = sys.argv[1], int(sys.argv[2])
def name(row):
    # from the class on (the package may differ between builds), then the parameters
    parts = row["benchmark"].split(".")
    first = next(i for i, p in enumerate(parts) if p[:1].isupper())
    params = "".join(f" {k}={v}" for k, v in sorted(row.get("params", {}).items()))
    return ".".join(parts[first:]) + params
def scores(label, i):
    rows = json.load(open(f"{out}/{label}-{i}.json"))
    return {name(r): r["primaryMetric"]["score"] for r in rows}
runs = {(label, i): scores(label, i) for label in ("before", "after") for i in range(1, pairs + 1)}
names = sorted(set().union(*[set(s) for s in runs.values()]))
print(f"{'benchmark':60} {'before':>14} {'after':>14} {'medians':>8} {'pairs':>8}  pairs' ratios")
for bench in names:
    b = [runs[("before", i)].get(bench) for i in range(1, pairs + 1)]
    a = [runs[("after", i)].get(bench) for i in range(1, pairs + 1)]
    if None in a or None in b:
        continue
    ratios = [x / y for x, y in zip(a, b)]
    mb, ma = statistics.median(b), statistics.median(a)
    print(f"{bench:60} {mb:14,.0f} {ma:14,.0f} {ma / mb:8.3f} {statistics.median(ratios):8.3f}  "
          + " ".join(f"{r:.2f}" for r in ratios))
PY
