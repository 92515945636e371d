#!/usr/bin/env python3
"""CPU time of each thread of a running JVM, every two seconds, until the process exits.

Reads /proc/PID/task/*/stat (utime + stime, in clock ticks of 10 ms) and prints, per interval,
the busiest threads and the ticks each used in it, so a bench's phases can be told apart by the
thread names in them. One read of /proc every two seconds barely disturbs what it watches.

    ./cairn bench --dir /tmp/lat --fresh --latency-during-checkpoint --durability periodic \\
        --threads 2 --rate 100k --checkpoint-every 1000 --json > /tmp/lat.json &
    sleep 3; python3 docs/probes/thread_cpu.py $(pgrep -f 'dev.cairn.cli.Main bench') /tmp/thr.txt

Thread names are cut to 15 characters by the kernel. Results: docs/BENCHMARKS.md (session 15).
"""
import glob
import os
import sys
import time


def sample(pid):
    ticks = {}
    for task in glob.glob(f"/proc/{pid}/task/*"):
        try:
            stat = open(task + "/stat").read()
        except OSError:
            continue  # the thread ended
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        ticks[(task.rsplit("/", 1)[1], name)] = int(fields[11]) + int(fields[12])
    return ticks


def main():
    pid, out_path = sys.argv[1], sys.argv[2]
    previous = {}
    with open(out_path, "w") as out:
        while os.path.exists(f"/proc/{pid}"):
            current = sample(pid)
            used = sorted(((t - previous.get(k, 0), k[1]) for k, t in current.items()), reverse=True)
            out.write(f"{time.time():.0f} "
                      + " ".join(f"{name}:{d}" for d, name in used[:8] if d > 0) + "\n")
            out.flush()
            previous = current
            time.sleep(2)


if __name__ == "__main__":
    main()
