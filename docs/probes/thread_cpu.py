#!/usr/bin/env python3
"""CPU time of each thread of a running JVM, every two seconds, until the process exits.

Reads /proc/PID/task/*/stat (utime + stime, in clock ticks of 10 ms) and prints, per interval,
the busiest threads and the ticks each used in it, so a bench's phases can be told apart by the
thread names in them. One read of /proc every two seconds barely disturbs what it watches.
With a third argument `--system`, every thread of every process is read (kernel workers too),
and each figure is split into user+kernel ticks ("name:U+S").

    ./cairn bench --dir /tmp/lat --fresh --latency-during-checkpoint --durability periodic \\
        --threads 2 --rate 100k --checkpoint-every 1000 --json > /tmp/lat.json &
    sleep 3; python3 docs/probes/thread_cpu.py $(pgrep -f 'dev.cairn.cli.Main bench') /tmp/thr.txt

Thread names are cut to 15 characters by the kernel. See docs/BENCHMARKS.md, "Probes".
"""
import glob
import os
import sys
import time


def sample(pid, system=False):
    """Ticks by thread id, and each thread's name now (a kernel worker's name changes with its
    work, so the id is the key)."""
    ticks, names = {}, {}
    for task in glob.glob("/proc/*/task/*" if system else f"/proc/{pid}/task/*"):
        try:
            stat = open(task + "/stat").read()
        except OSError:
            continue  # the thread ended
        tid = task.rsplit("/", 1)[1]
        names[tid] = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        user, kernel = int(fields[11]), int(fields[12])
        ticks[tid] = (user, kernel) if system else user + kernel
    return ticks, names


def main():
    pid, out_path = sys.argv[1], sys.argv[2]
    system = len(sys.argv) > 3 and sys.argv[3] == "--system"
    previous = None
    with open(out_path, "w") as out:
        while os.path.exists(f"/proc/{pid}"):
            current, names = sample(pid, system)
            if previous is not None:  # threads born in the interval count from 0
                zero = (0, 0) if system else 0
                if system:
                    used = sorted(((u + k - sum(previous.get(t, zero)), u - previous.get(t, zero)[0],
                                    k - previous.get(t, zero)[1], names[t])
                                   for t, (u, k) in current.items()), reverse=True)
                    line = " ".join(f"{n}:{u}+{k}" for d, u, k, n in used[:12] if d > 0)
                else:
                    used = sorted(((v - previous.get(t, 0), names[t]) for t, v in current.items()),
                                  reverse=True)
                    line = " ".join(f"{n}:{d}" for d, n in used[:8] if d > 0)
                out.write(f"{time.time():.0f} " + line + "\n")
                out.flush()
            previous = current
            time.sleep(2)


if __name__ == "__main__":
    main()
