package dev.cairn.cache.policy.simulator;

import java.util.Arrays;

/**
 * LRU or FIFO, the baselines: a doubly linked list over the dense key ids, byte-weighted, exact.
 */
public final class LinkedPolicy implements CachePolicy {
  private static final int NIL = -1;

  private final boolean lru;
  private final long budgetBytes;
  private final int[] prev;
  private final int[] next;
  private final long[] size;
  private final boolean[] resident;
  private int head = NIL; // eldest
  private int tail = NIL; // newest
  private long usedBytes;

  private LinkedPolicy(boolean lru, long budgetBytes, int distinctKeys) {
    this.lru = lru;
    this.budgetBytes = budgetBytes;
    prev = new int[distinctKeys];
    next = new int[distinctKeys];
    size = new long[distinctKeys];
    resident = new boolean[distinctKeys];
    Arrays.fill(prev, NIL);
    Arrays.fill(next, NIL);
  }

  public static LinkedPolicy lru(long budgetBytes, int distinctKeys) {
    return new LinkedPolicy(true, budgetBytes, distinctKeys);
  }

  public static LinkedPolicy fifo(long budgetBytes, int distinctKeys) {
    return new LinkedPolicy(false, budgetBytes, distinctKeys);
  }

  @Override
  public boolean access(int id, long sizeBytes) {
    if (resident[id]) {
      if (lru) {
        unlink(id);
        append(id);
      }
      return true;
    }
    if (sizeBytes > budgetBytes) {
      return false;
    }
    resident[id] = true;
    size[id] = sizeBytes;
    usedBytes += sizeBytes;
    append(id);
    while (usedBytes > budgetBytes) {
      int victim = head;
      unlink(victim);
      resident[victim] = false;
      usedBytes -= size[victim];
    }
    return false;
  }

  private void append(int id) {
    prev[id] = tail;
    next[id] = NIL;
    if (tail == NIL) {
      head = id;
    } else {
      next[tail] = id;
    }
    tail = id;
  }

  private void unlink(int id) {
    int p = prev[id];
    int n = next[id];
    if (p == NIL) {
      head = n;
    } else {
      next[p] = n;
    }
    if (n == NIL) {
      tail = p;
    } else {
      prev[n] = p;
    }
  }

  @Override
  public long usedBytes() {
    return usedBytes;
  }

  @Override
  public String name() {
    return lru ? "LRU" : "FIFO";
  }
}
