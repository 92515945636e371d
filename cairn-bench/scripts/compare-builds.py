#!/usr/bin/env python3
"""Summarises compare-builds.sh's runs: per figure, the median of each build over its runs, the
ratio of those medians after/before, and the median of the per-pair ratios (run i of after over
run i of before: the two ran in the same minutes, so a pair's ratio is less exposed to the
machine's drift than the medians are). Higher is better for rates, lower for times; the table
says which."""
import glob
import json
import os
import statistics
import sys

FIGURES = [  # (file kind, path, label, higher is better)
    ("load", "stores.pile.putsPerSec", "volatile puts/s", True),
    ("load", "stores.pile.getsPerSec", "volatile gets/s", True),
    ("load", "stores.mapped.putsPerSec", "durability none puts/s", True),
    ("load", "stores.mapped.getsPerSec", "durability none gets/s", True),
    ("commits", "stores.pile.commitsPerSec", "SYNC commits/s, 16 threads", True),
    ("reopen", "stores.pile.reopenFirstGetMs", "reopen to first get, ms", False),
    ("reopen", "stores.pile.restartFirstGetMs", "restart to first get, ms", False),
    ("person", "stores.pile.putsPerSec", "Person puts/s", True),
    ("person", "stores.pile.getsPerSec", "Person gets/s", True),
]


def value(document, path):
    for key in path.split("."):
        document = document[key]
    return float(document)


def main(directory):
    print("| figure | before (median) | after (median) | after/before | per-pair median | runs |")
    print("|---|---|---|---|---|---|")
    for kind, path, label, higher in FIGURES:
        runs = {}
        for build in ("before", "after"):
            runs[build] = {}
            for f in glob.glob(os.path.join(directory, f"{build}-*-{kind}.json")):
                pair = os.path.basename(f).split("-")[1]
                runs[build][pair] = value(json.load(open(f)), path)
        if not runs["before"] or not runs["after"]:
            continue
        medians = {build: statistics.median(runs[build].values()) for build in runs}
        ratio = medians["after"] / medians["before"]
        better = ratio if higher else 1 / ratio
        pairs = sorted(set(runs["before"]) & set(runs["after"]), key=int)
        pair_ratio = statistics.median(runs["after"][p] / runs["before"][p] for p in pairs)
        print(f"| {label} | {medians['before']:,.1f} | {medians['after']:,.1f} | {ratio:.3f}"
              f" ({'better' if better >= 1 else 'worse'} {abs(better - 1) * 100:.1f}%)"
              f" | {pair_ratio:.3f} | {len(pairs)} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/cairn-compare")
