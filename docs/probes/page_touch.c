/*
 * What the first write to fresh anonymous memory costs on this machine, in 2 MiB transparent huge
 * pages (madvise, as Cairn's volatile segments ask) and in 4 KiB pages. It maps MiB of private
 * anonymous memory, asks for huge pages or not, writes one byte in every 4 KiB page, and prints
 * the time and the rate. No JVM: what is left is the kernel's page faults and the zeroing of each
 * page, and under a hypervisor the host's backing of guest memory the guest never used before.
 *
 * Why: the cache's load runs on huge pages by default, and its rate moved by up to a half from one
 * run to the next (docs/BENCHMARKS.md, "Machine" and "Huge pages for the cache"). Run it a few
 * times in a row: the first huge-page run after the machine has been idle pays for guest memory
 * the host had not backed yet; the next ones reuse it.
 *
 *   gcc -O2 -o /tmp/page_touch docs/probes/page_touch.c
 *   /tmp/page_touch 1024 1     # MiB, 1 for huge pages (madvise), 0 for 4 KiB pages
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s MIB HUGE(0|1)\n", argv[0]);
    return 2;
  }
  size_t bytes = (size_t)atol(argv[1]) << 20;
  int huge = atoi(argv[2]);
  char *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  if (huge && madvise(memory, bytes, MADV_HUGEPAGE) != 0) {
    perror("madvise");
    return 1;
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (size_t i = 0; i < bytes; i += 4096) {
    memory[i] = 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  double ms = (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
  printf("%s pages, %zu MiB: %.0f ms (%.2f GB/s)\n", huge ? "2 MiB" : "4 KiB", bytes >> 20, ms,
         (bytes / 1e9) / (ms / 1e3));
  return 0;
}
