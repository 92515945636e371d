/*
 * The ceiling of group commit on this machine, without a JVM. T threads each commit one 64-byte
 * record at a time and wait until it is on stable storage, then commit the next, as `cairn
 * bench --commits` does; records are appended under one mutex and forced with pwrite +
 * fdatasync into a 64 MiB file written with zeros first (as a SYNC pile's log is). Three ways to
 * run the forces:
 *   0  a flusher thread writes and forces whatever was appended, and wakes every waiter with one
 *      FUTEX_WAKE (the cheapest release there is);
 *   1  the same flusher, waking each committer its force covered with a FUTEX_WAKE of its own
 *      (what LockSupport.unpark does, and what Cairn's log does);
 *   2  no flusher: the first committer to find no force under way writes and forces for all
 *      (a leader, as RocksDB's write group has), then wakes every waiter at once;
 *   3  as 1, but each committer waits on a mutex, a condition and a permit of its own, the way
 *      HotSpot's Parker implements LockSupport.park and unpark.
 * It prints commits/s, forces/s and commits per force over the run.
 *
 * Why: to compare Cairn's SYNC commits (and RocksDB's `sync=true`) with what the disk and the
 * CPUs allow a group commit written in C with no allocation, no JIT and no GC, run in the same
 * minutes (docs/BENCHMARKS.md, "Synchronous commits").
 *
 *   gcc -O2 -pthread -o /tmp/group_commit docs/probes/group_commit.c
 *   /tmp/group_commit 16 3 /tmp/gc-probe.dat 1     # threads, seconds, file, mode
 *   /tmp/group_commit 16 3 /tmp/gc-probe.dat 1 4   # and 4 µs of busy work before each commit
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define RECORD 64
#define RING_RECORDS 16384
#define FILE_BYTES (64L << 20)
#define MAX_THREADS 256
#define STRIDE 16 /* one word per cache line */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char ring[RING_RECORDS * RECORD];
static long appended;      /* records appended; guarded by lock */
static long taken;         /* records a force has taken; guarded by lock */
static int flushing;       /* mode 2: a leader is forcing; guarded by lock */
static int flusher_idle;   /* modes 0 and 1: the flusher waits for records; guarded by lock */
static atomic_long durable;
static atomic_int durable_word;  /* bumped after each force, for broadcast waiters */
static atomic_int flusher_word;
static atomic_long waiting_for[MAX_THREADS * STRIDE]; /* mode 1: the record each waits for */
static atomic_int own_word[MAX_THREADS * STRIDE];
static atomic_int stop, flusher_stop;
/* mode 3: a mutex, a condition and a permit per thread, as HotSpot's Parker has */
struct parker {
  pthread_mutex_t mutex;
  pthread_cond_t cond;
  int permit;
  char pad[64];
};
static struct parker parkers[MAX_THREADS];
static long forces, forced_records;
static int fd, mode, threads;

static void futex_wait(atomic_int *word, int expected) {
  syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(atomic_int *word, int count) {
  syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

/* Writes records [from, to) at their place in the file and forces it. */
static void force_range(long from, long to) {
  static char staging[RING_RECORDS * RECORD];
  long count = to - from;
  for (long r = from; r < to; r++) {
    memcpy(staging + (r - from) * RECORD, ring + (r % RING_RECORDS) * RECORD, RECORD);
  }
  long at = (from * RECORD) % FILE_BYTES;
  long bytes = count * RECORD;
  if (at + bytes > FILE_BYTES) {
    at = 0; /* the file wraps like a log; keep each write contiguous */
  }
  if (pwrite(fd, staging, bytes, at) != bytes || fdatasync(fd) != 0) {
    perror("pwrite/fdatasync");
    exit(1);
  }
  forces++;
  forced_records += count;
}

static void publish(long to) {
  atomic_store(&durable, to);
  atomic_fetch_add(&durable_word, 1);
  if (mode == 1 || mode == 3) {
    for (int t = 0; t < threads; t++) {
      long wanted = atomic_load(&waiting_for[t * STRIDE]);
      if (wanted != 0 && wanted <= to) {
        atomic_store(&waiting_for[t * STRIDE], 0);
        if (mode == 3) { /* LockSupport.unpark: set the permit, signal after unlocking */
          pthread_mutex_lock(&parkers[t].mutex);
          parkers[t].permit = 1;
          pthread_mutex_unlock(&parkers[t].mutex);
          pthread_cond_signal(&parkers[t].cond);
          continue;
        }
        atomic_fetch_add(&own_word[t * STRIDE], 1);
        futex_wake(&own_word[t * STRIDE], 1);
      }
    }
  } else {
    futex_wake(&durable_word, INT_MAX);
  }
}

static void *flusher(void *unused) {
  (void) unused;
  for (;;) {
    pthread_mutex_lock(&lock);
    while (taken == appended) {
      if (atomic_load(&flusher_stop)) {
        pthread_mutex_unlock(&lock);
        return NULL;
      }
      flusher_idle = 1;
      int seen = atomic_load(&flusher_word);
      pthread_mutex_unlock(&lock);
      struct timespec limit = {0, 10 * 1000 * 1000};
      syscall(SYS_futex, &flusher_word, FUTEX_WAIT_PRIVATE, seen, &limit, NULL, 0);
      pthread_mutex_lock(&lock);
    }
    long from = taken, to = appended;
    taken = to;
    pthread_mutex_unlock(&lock);
    force_range(from, to);
    publish(to);
  }
}

static void await_durable(int self, long mine) {
  if (mode == 3) { /* LockSupport.park: wait on the thread's own condition for its permit */
    for (;;) {
      atomic_store(&waiting_for[self * STRIDE], mine);
      if (atomic_load(&durable) >= mine) {
        atomic_store(&waiting_for[self * STRIDE], 0);
        return;
      }
      struct parker *p = &parkers[self];
      pthread_mutex_lock(&p->mutex);
      while (!p->permit) {
        pthread_cond_wait(&p->cond, &p->mutex);
      }
      p->permit = 0;
      pthread_mutex_unlock(&p->mutex);
      if (atomic_load(&durable) >= mine) {
        return;
      }
    }
  }
  if (mode == 1) {
    for (;;) {
      int seen = atomic_load(&own_word[self * STRIDE]);
      atomic_store(&waiting_for[self * STRIDE], mine);
      if (atomic_load(&durable) >= mine) {
        atomic_store(&waiting_for[self * STRIDE], 0);
        return;
      }
      futex_wait(&own_word[self * STRIDE], seen);
      if (atomic_load(&durable) >= mine) {
        return;
      }
    }
  }
  for (;;) {
    int seen = atomic_load(&durable_word);
    if (atomic_load(&durable) >= mine) {
      return;
    }
    futex_wait(&durable_word, seen);
  }
}

static void commit(int self, const char *record) {
  pthread_mutex_lock(&lock);
  memcpy(ring + (appended % RING_RECORDS) * RECORD, record, RECORD);
  long mine = ++appended;
  if (mode != 2) {
    int wake = flusher_idle;
    flusher_idle = 0;
    if (wake) {
      atomic_fetch_add(&flusher_word, 1);
    }
    pthread_mutex_unlock(&lock);
    if (wake) {
      futex_wake(&flusher_word, 1);
    }
    await_durable(self, mine);
    return;
  }
  for (;;) { /* mode 2: lead a force, or wait for the leader's */
    if (atomic_load(&durable) >= mine) {
      pthread_mutex_unlock(&lock);
      return;
    }
    if (!flushing) {
      flushing = 1;
      long from = taken, to = appended;
      taken = to;
      pthread_mutex_unlock(&lock);
      force_range(from, to);
      pthread_mutex_lock(&lock);
      flushing = 0;
      pthread_mutex_unlock(&lock);
      publish(to);
      pthread_mutex_lock(&lock);
      continue;
    }
    int seen = atomic_load(&durable_word);
    pthread_mutex_unlock(&lock);
    if (atomic_load(&durable) < mine) {
      futex_wait(&durable_word, seen);
    }
    pthread_mutex_lock(&lock);
  }
}

static long commits[MAX_THREADS * STRIDE];
static double work_seconds; /* busy work per commit before it, the caller's own (optional) */

static double now(void);

static void *committer(void *arg) {
  int self = (int) (long) arg;
  char record[RECORD];
  memset(record, 'a' + self % 26, RECORD);
  while (!atomic_load(&stop)) {
    if (work_seconds > 0) {
      double until = now() + work_seconds;
      while (now() < until) {
      }
    }
    commit(self, record);
    commits[self * STRIDE]++;
  }
  return NULL;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s THREADS SECONDS FILE MODE(0 flusher+broadcast, 1 flusher+single"
        " wakes, 2 leader, 3 flusher+parkers)\n", argv[0]);
    return 2;
  }
  threads = atoi(argv[1]);
  double seconds = atof(argv[2]);
  mode = atoi(argv[4]);
  work_seconds = argc > 5 ? atof(argv[5]) / 1e6 : 0;
  if (threads < 1 || threads > MAX_THREADS || mode < 0 || mode > 3) {
    fprintf(stderr, "threads 1-%d, mode 0-3\n", MAX_THREADS);
    return 2;
  }
  fd = open(argv[3], O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    perror(argv[3]);
    return 1;
  }
  static char zeros[1 << 20];
  for (long at = 0; at < FILE_BYTES; at += sizeof zeros) {
    if (pwrite(fd, zeros, sizeof zeros, at) != (ssize_t) sizeof zeros) {
      perror("pwrite");
      return 1;
    }
  }
  fsync(fd);
  pthread_t flusher_thread, workers[MAX_THREADS];
  for (int t = 0; t < MAX_THREADS; t++) {
    pthread_mutex_init(&parkers[t].mutex, NULL);
    pthread_cond_init(&parkers[t].cond, NULL);
  }
  if (mode != 2) {
    pthread_create(&flusher_thread, NULL, flusher, NULL);
  }
  double started = now();
  for (long t = 0; t < threads; t++) {
    pthread_create(&workers[t], NULL, committer, (void *) t);
  }
  usleep((useconds_t) (seconds * 1e6));
  atomic_store(&stop, 1);
  double elapsed = now() - started;
  for (int t = 0; t < threads; t++) { /* each finishes the commit it is in */
    pthread_join(workers[t], NULL);
  }
  if (mode != 2) {
    atomic_store(&flusher_stop, 1);
    atomic_fetch_add(&flusher_word, 1);
    futex_wake(&flusher_word, 1);
    pthread_join(flusher_thread, NULL);
  }
  long total = 0;
  for (int t = 0; t < threads; t++) {
    total += commits[t * STRIDE];
  }
  printf("threads %d mode %d: %.0f commits/s, %.0f forces/s, %.1f commits a force\n", threads,
      mode, total / elapsed, forces / elapsed, forces ? (double) forced_records / forces : 0);
  close(fd);
  unlink(argv[3]);
  return 0;
}
