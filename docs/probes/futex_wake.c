/*
 * How long waking N parked threads takes on this machine: one FUTEX_WAKE of all of them at once
 * (what a log could do if every committer waited on one word) against N single wakes, one per
 * thread (what LockSupport.unpark does, one committer at a time). Each round wakes the N
 * threads, each does a little work and waits again; the probe prints the time spent in the wake
 * call(s) and the time until all N were back, averaged over 20,000 rounds.
 *
 * Why: at 16 threads the write-ahead log's group commit spends about as long releasing its
 * committers after a force as the force takes (docs/BENCHMARKS.md, "Synchronous commits"). If
 * one broadcast woke them much faster, the log could wait on a futex through FFM.
 *
 *   gcc -O2 -pthread -o /tmp/futex_wake docs/probes/futex_wake.c
 *   /tmp/futex_wake 14 0; /tmp/futex_wake 14 1     # N single wakes; one broadcast
 */
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 64
#define ROUNDS 20000
#define STRIDE 16 /* one word per cache line for the single wakes */

static atomic_int shared_word;
static atomic_int own_word[MAX_THREADS * STRIDE];
static atomic_int back; /* threads done with the current round */
static int broadcast;

static long futex(atomic_int *word, int op, int value) {
  return syscall(SYS_futex, word, op, value, NULL, NULL, 0);
}

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void *waiter(void *arg) {
  long i = (long) arg;
  atomic_int *word = broadcast ? &shared_word : &own_word[i * STRIDE];
  int seen = atomic_load(word);
  for (;;) {
    atomic_fetch_add(&back, 1);
    while (atomic_load(word) == seen) {
      futex(word, FUTEX_WAIT_PRIVATE, seen);
    }
    seen = atomic_load(word);
    volatile long work = 0; /* a committer's next append, roughly */
    for (int k = 0; k < 2000; k++) {
      work += k;
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s THREADS BROADCAST(0|1)\n", argv[0]);
    return 2;
  }
  int threads = atoi(argv[1]);
  broadcast = atoi(argv[2]);
  if (threads < 1 || threads > MAX_THREADS) {
    fprintf(stderr, "THREADS must be 1..%d\n", MAX_THREADS);
    return 2;
  }
  pthread_t t[MAX_THREADS];
  for (long i = 0; i < threads; i++) {
    pthread_create(&t[i], NULL, waiter, (void *) i);
  }
  double wake_sum = 0, round_sum = 0;
  for (int r = 0; r < ROUNDS; r++) {
    while (atomic_load(&back) < threads) {
      sched_yield();
    }
    atomic_store(&back, 0);
    double t0 = now_us();
    if (broadcast) {
      atomic_fetch_add(&shared_word, 1);
      futex(&shared_word, FUTEX_WAKE_PRIVATE, MAX_THREADS);
    } else {
      for (int i = 0; i < threads; i++) {
        atomic_fetch_add(&own_word[i * STRIDE], 1);
        futex(&own_word[i * STRIDE], FUTEX_WAKE_PRIVATE, 1);
      }
    }
    double t1 = now_us();
    while (atomic_load(&back) < threads) {
      sched_yield();
    }
    double t2 = now_us();
    wake_sum += t1 - t0;
    round_sum += t2 - t0;
  }
  printf("%d threads, %s: wake call(s) %.1f us, all back %.1f us (mean of %d rounds)\n",
      threads, broadcast ? "one broadcast" : "one wake each", wake_sum / ROUNDS,
      round_sum / ROUNDS, ROUNDS);
  return 0;
}
