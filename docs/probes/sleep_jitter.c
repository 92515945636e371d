/*
 * How late a sleeping thread wakes: sleeps 1 ms at a time for SECONDS, and prints the
 * percentiles of the oversleep, every oversleep longer than STALL_MS (default 5) with when it
 * began, and the share of CPU time the hypervisor stole over the run (/proc/stat).
 *
 * Why: on the 2-core VM of docs/BENCHMARKS.md, puts timed by `cairn bench
 * --latency-during-checkpoint` stall for 10-25 ms about every 100 ms while checkpoints run. Run
 * this beside it, in another process that does no I/O and takes no lock of the JVM's, to tell
 * whether the whole machine stops (the probe stalls at the same moments) or the pile does (it
 * does not). Load it on its own with fsync_threads.c and a busy loop to find what sets it off.
 *
 *   cc -O2 -o /tmp/sleep_jitter docs/probes/sleep_jitter.c
 *   /tmp/sleep_jitter 4 5
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SAMPLES 200000

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Sums of the first eight /proc/stat "cpu" fields, and the eighth (steal), in ticks. */
static int cpu_ticks(long long *total, long long *steal) {
  FILE *f = fopen("/proc/stat", "r");
  if (f == NULL) {
    return -1;
  }
  long long v[8] = {0};
  int n = fscanf(f, "cpu %lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1], &v[2], &v[3],
                 &v[4], &v[5], &v[6], &v[7]);
  fclose(f);
  if (n != 8) {
    return -1;
  }
  *total = 0;
  for (int i = 0; i < 8; i++) {
    *total += v[i];
  }
  *steal = v[7];
  return 0;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: %s SECONDS [STALL_MS]\n", argv[0]);
    return 2;
  }
  double seconds = atof(argv[1]);
  double stall_ms = argc == 3 ? atof(argv[2]) : 5;
  static double late[MAX_SAMPLES];
  int n = 0, stalls = 0;
  long long total0 = 0, steal0 = 0, total1 = 0, steal1 = 0;
  int have_stat = cpu_ticks(&total0, &steal0) == 0;
  double start = now_ms();
  struct timespec one_ms = {0, 1000000};
  while (n < MAX_SAMPLES) {
    double before = now_ms();
    if (before - start >= seconds * 1e3) {
      break;
    }
    nanosleep(&one_ms, NULL);
    double over = now_ms() - before - 1.0;
    late[n++] = over;
    if (over > stall_ms) {
      stalls++;
      printf("stall at %.0f ms: %.1f ms\n", before - start, over);
    }
  }
  have_stat = have_stat && cpu_ticks(&total1, &steal1) == 0;
  qsort(late, n, sizeof late[0], compare);
  printf("%d sleeps of 1 ms, oversleep p50 %.2f p99 %.2f p99.9 %.2f max %.2f ms; %d over %.1f ms",
         n, late[n / 2], late[(int) (n * 0.99)], late[(int) (n * 0.999)], late[n - 1], stalls,
         stall_ms);
  if (have_stat && total1 > total0) {
    printf("; steal %.1f %% of CPU time", 100.0 * (steal1 - steal0) / (total1 - total0));
  }
  printf("\n");
  return 0;
}
