/*
 * How many fdatasync calls a second this disk completes when T threads each write 64 bytes at
 * their own offset of one preallocated file and force it, in a loop, for three seconds: how many
 * forces the disk completes side by side, and, beside sleep_jitter.c, whether a stream of forces
 * stalls the machine.
 *
 *   gcc -O2 -pthread docs/probes/fsync_threads.c -o /tmp/fsync_threads
 *   for t in 1 2 4; do /tmp/fsync_threads $t /tmp/fsync-probe.dat; done; rm /tmp/fsync-probe.dat
 *
 * With a third argument SLOW_MS, it also prints every force that took longer than that, with
 * when it started (ms since the first), to see whether slow forces recur on a period:
 *
 *   /tmp/fsync_threads 1 /tmp/fsync-probe.dat 1; rm /tmp/fsync-probe.dat
 *
 * Results are in docs/BENCHMARKS.md ("Machine").
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define FILE_BYTES (64L << 20)
#define SECONDS 3

static int fd;
static atomic_long next_offset;
static atomic_long forces;
static atomic_int stop;
static double slow_ms = -1;
static double start_ms;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void *force_loop(void *unused) {
  char record[64] = {1};
  (void) unused;
  while (!atomic_load(&stop)) {
    long offset = atomic_fetch_add(&next_offset, sizeof record) % FILE_BYTES;
    double began = now_ms();
    if (pwrite(fd, record, sizeof record, offset) != sizeof record || fdatasync(fd) != 0) {
      perror("write or fdatasync");
      exit(1);
    }
    double took = now_ms() - began;
    if (slow_ms >= 0 && took > slow_ms) {
      printf("slow force at %.1f ms: %.2f ms\n", began - start_ms, took);
    }
    atomic_fetch_add(&forces, 1);
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: %s THREADS FILE [SLOW_MS]\n", argv[0]);
    return 2;
  }
  if (argc == 4) {
    slow_ms = atof(argv[3]);
  }
  int threads = atoi(argv[1]);
  if (threads < 1 || threads > 64) {
    fprintf(stderr, "THREADS must be in [1, 64]\n");
    return 2;
  }
  fd = open(argv[2], O_RDWR | O_CREAT, 0644);
  if (fd < 0) {
    perror(argv[2]);
    return 1;
  }
  /* zeros, really written: later forces then have no block allocation to journal */
  static char zeros[1 << 16];
  for (long at = 0; at < FILE_BYTES; at += sizeof zeros) {
    if (pwrite(fd, zeros, sizeof zeros, at) != sizeof zeros) {
      perror("preallocate");
      return 1;
    }
  }
  fsync(fd);
  pthread_t workers[64];
  start_ms = now_ms();
  for (int i = 0; i < threads; i++) {
    pthread_create(&workers[i], NULL, force_loop, NULL);
  }
  sleep(SECONDS);
  atomic_store(&stop, 1);
  for (int i = 0; i < threads; i++) {
    pthread_join(workers[i], NULL);
  }
  printf("threads %d: %ld fdatasyncs/s\n", threads, atomic_load(&forces) / SECONDS);
  close(fd);
  return 0;
}
