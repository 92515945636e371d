#!/usr/bin/env python3
"""What ran on a CPU while a thread waited for it.

Reads the text of `perf sched timehist` and, for every wake-up of the threads whose name starts
with PREFIX that waited longer than MIN_MS for a CPU ("sch delay") in the last WINDOW seconds of
the trace, adds up which other tasks ran on that CPU meanwhile. Prints the tasks by the time
they took from those waits.

Why: to tell whether a put thread of `cairn bench --latency-during-checkpoint` waited behind
the pile's checkpoint, the JIT, the kernel or nothing (docs/BENCHMARKS.md, "Probes").

    perf sched record -a -o /tmp/ps.data   # while the bench runs; stop it with Ctrl-C
    perf sched timehist -i /tmp/ps.data > /tmp/th.txt
    python3 docs/probes/sched_blame.py /tmp/th.txt 8 0.8 bench-checkpoin
"""
import collections
import re
import sys

ROW = re.compile(r"\s*([\d.]+)\s+\[(\d+)\]\s+(.+?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$")


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: sched_blame.py TIMEHIST_TXT WINDOW_S MIN_MS PREFIX")
    path, window, min_ms, prefix = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    rows = []  # (switched out at s, cpu, task, sch delay s, run time s)
    with open(path) as lines:
        for line in lines:
            m = ROW.match(line)
            if m:
                rows.append((float(m.group(1)), int(m.group(2)), m.group(3).strip(),
                             float(m.group(5)) / 1e3, float(m.group(6)) / 1e3))
    if not rows:
        sys.exit("no rows in " + path)
    end = rows[-1][0]
    blame = collections.Counter()
    waits = 0
    waited = 0.0
    for (out, cpu, task, delay, run) in rows:
        if out < end - window or not task.startswith(prefix) or delay < min_ms / 1e3:
            continue
        waits += 1
        waited += delay
        ran_from = out - run
        woken = ran_from - delay
        for (out2, cpu2, task2, _, run2) in rows:
            if cpu2 != cpu or task2 == task:
                continue
            overlap = min(out2, ran_from) - max(out2 - run2, woken)
            if overlap > 0:
                blame[re.sub(r"\[.*", "", task2)] += overlap * 1e3
    print("%d waits over %.2f ms, %.2f ms in all" % (waits, min_ms, waited * 1e3))
    for task, ms in blame.most_common(12):
        print("%-28s %.2f ms" % (task, ms))


if __name__ == "__main__":
    main()
