#!/usr/bin/env python3
"""Summarises compare-builds.sh's runs: per figure, the median of each build over its runs, and
the ratio after/before (higher is better for rates, lower for times; the table says which)."""
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
    print("| figure | before (median) | after (median) | after/before | runs |")
    print("|---|---|---|---|---|")
    for kind, path, label, higher in FIGURES:
        medians = {}
        runs = 0
        for build in ("before", "after"):
            values = [value(json.load(open(f)), path)
                      for f in sorted(glob.glob(os.path.join(directory, f"{build}-*-{kind}.json")))]
            runs = len(values)
            medians[build] = statistics.median(values) if values else float("nan")
        if runs == 0:
            continue
        ratio = medians["after"] / medians["before"]
        better = ratio if higher else 1 / ratio
        print(f"| {label} | {medians['before']:,.1f} | {medians['after']:,.1f} | {ratio:.3f}"
              f" ({'better' if better >= 1 else 'worse'} {abs(better - 1) * 100:.1f}%) | {runs} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/cairn-compare")
