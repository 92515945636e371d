/*
 * Whether the way a checkpoint writes stops the machine: every second, writes MIB MiB of 4 KiB
 * pages in CHUNK_KIB writes into a preallocated 256 MiB file (/tmp/ckpt-probe.dat), and
 *   SYNC_KIB > 0: forces the file (fdatasync) after every SYNC_KIB written,
 *   SYNC_KIB < 0: starts write-back of every -SYNC_KIB written (sync_file_range, not waiting),
 *   SYNC_KIB = 0: forces only at the end,
 * then forces at the end in every case, for SECONDS seconds. Run it beside sleep_jitter.c and a
 * busy loop, and count the sleeper's stalls (docs/BENCHMARKS.md, session 13):
 *
 *   gcc -O2 -o /tmp/ckpt_io docs/probes/ckpt_io.c
 *   timeout 11 sh -c 'while :; do :; done' & /tmp/ckpt_io 16 1024 0 10 & /tmp/sleep_jitter 10 1
 *   timeout 11 sh -c 'while :; do :; done' & /tmp/ckpt_io 16 256 1024 10 & /tmp/sleep_jitter 10 1
 *   rm /tmp/ckpt-probe.dat
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define FILE_BYTES (256L << 20)
#define REGION_BYTES (64L << 20)

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s MIB CHUNK_KIB SYNC_KIB SECONDS\n", argv[0]);
    return 2;
  }
  long bytes = atol(argv[1]) << 20;
  long chunk = atol(argv[2]) << 10;
  long sync_every = atol(argv[3]) << 10;
  int seconds = atoi(argv[4]);
  if (bytes <= 0 || bytes > REGION_BYTES || chunk <= 0 || chunk > bytes || seconds <= 0) {
    fprintf(stderr, "need 0 < CHUNK_KIB <= MIB*1024, MIB <= 64, SECONDS > 0\n");
    return 2;
  }
  int fd = open("/tmp/ckpt-probe.dat", O_RDWR | O_CREAT, 0644);
  if (fd < 0 || posix_fallocate(fd, 0, FILE_BYTES) != 0) {
    perror("/tmp/ckpt-probe.dat");
    return 1;
  }
  char *buf = aligned_alloc(4096, chunk);
  memset(buf, 7, chunk);
  srand(1);
  for (int s = 0; s < seconds; s++) {
    double start = now_ms();
    long base = (rand() % (FILE_BYTES / REGION_BYTES)) * REGION_BYTES;
    long written = 0, pending = 0;
    while (written < bytes) {
      if (pwrite(fd, buf, chunk, base + written) != chunk) {
        perror("pwrite");
        return 1;
      }
      written += chunk;
      pending += chunk;
      if (sync_every > 0 && pending >= sync_every) {
        fdatasync(fd);
        pending = 0;
      } else if (sync_every < 0 && pending >= -sync_every) {
        sync_file_range(fd, base + written - pending, pending, SYNC_FILE_RANGE_WRITE);
        pending = 0;
      }
    }
    fdatasync(fd);
    double took = now_ms() - start;
    printf("second %d: %ld MiB written and forced in %.1f ms\n", s, bytes >> 20, took);
    if (took < 1000) {
      usleep((useconds_t) ((1000 - took) * 1000));
    }
  }
  return 0;
}
