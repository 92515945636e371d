package dev.cairn.pile;

import static dev.cairn.pile.PileTestSupport.ANY_ENTRY;
import static dev.cairn.pile.PileTestSupport.CHECKED_MIN_BYTES;
import static dev.cairn.pile.PileTestSupport.assertHoldsNothing;
import static dev.cairn.pile.PileTestSupport.assertStatsConsistent;
import static dev.cairn.pile.PileTestSupport.checkedValue;
import static dev.cairn.pile.PileTestSupport.checkedValueProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many threads put, read, update in place, update with a move, and delete, each on its own entries,
 * while also reading the entries of other threads, which may be deleted or moved under them.
 *
 * <p>Every value is self-describing ({@link PileTestSupport#checkedValue}), so a reader can tell
 * what it got. A read of a pointer must either throw {@link StalePointerException} or return a
 * value whose length and checksum are right (not torn) and whose entry id is the one put at that
 * pointer (never another value's bytes). The owner of an entry, its only writer, must also read
 * back exactly its latest sequence.
 *
 * <p>Runs for {@link #RUN_MILLIS} with more threads than cores, then empties the pile and checks
 * that every counter is back to zero. A second, narrower race ({@link #RACE_MILLIS}) rewrites one
 * large value in place at the same size while every read path reads it.
 *
 * <p>Concurrency is not reproducible from a seed; the printed seed fixes the operation mix and the
 * value sizes, so a rerun with it recreates the same workload.
 */
class PileConcurrencyStressTest {

  private static final long RUN_MILLIS = 2_500;
  private static final long RACE_MILLIS = 1_000;
  private static final int WRITERS = 8;
  private static final int SLOTS_PER_WRITER = 256;
  private static final int MIN_VALUE_BYTES = CHECKED_MIN_BYTES;
  private static final long SEGMENT_BYTES = 1L << 20;

  /** A published entry: what other threads may read. Immutable; replaced on delete. */
  private record Slot(long pointer, long entryId) {}

  /** The owner's private view of one of its entries. */
  private static final class Own {
    long pointer;
    long entryId;
    long sequence;
    int length;
  }

  private long seed;
  private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  private final LongAdder reads = new LongAdder();
  private final LongAdder staleReads = new LongAdder();

  /**
   * Reads of a deleted pointer whose memory was reused by a value whose random bytes at the
   * pointer's offset carry the pointer's sealed tag, so that the read fails the header's other
   * checks ("not a block start") instead of its tag check: the odds the tags leave by design, 1 in
   * 2^23 per read of reused memory (docs/ARCHITECTURE.md, "A read racing a reuse"). A run makes a
   * few thousand such reads, so even one is rare; more than {@link #MAX_TAG_COINCIDENCES} is a bug.
   */
  private final LongAdder tagCoincidences = new LongAdder();

  private static final int MAX_TAG_COINCIDENCES = 2;
  private final LongAdder mutations = new LongAdder();

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void mixedWorkload_neverReturnsTornOrForeignBytes_andEndsWithZeroCounters() throws Exception {
    seed = PileTestSupport.seed("PileConcurrencyStressTest");
    PileOptions options = PileOptions.builder().segmentBytes(SEGMENT_BYTES).stripes(4).build();
    try (Pile pile = Pile.offHeap(options)) {
      AtomicReferenceArray<Slot> slots = new AtomicReferenceArray<>(WRITERS * SLOTS_PER_WRITER);
      List<Own[]> owned = new ArrayList<>();
      AtomicBoolean stop = new AtomicBoolean();
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        Own[] own = new Own[SLOTS_PER_WRITER];
        owned.add(own);
        int writer = w;
        threads.add(
            Thread.ofPlatform()
                .name("stress-writer-" + w)
                .unstarted(
                    () ->
                        guarded(
                            () -> {
                              start.await();
                              writerLoop(
                                  pile,
                                  slots,
                                  own,
                                  writer,
                                  new SplittableRandom(seed * 31 + writer),
                                  stop);
                            })));
      }
      threads.add(
          Thread.ofPlatform()
              .name("stress-walker")
              .unstarted(
                  () ->
                      guarded(
                          () -> {
                            start.await();
                            walkerLoop(pile, stop);
                          })));
      threads.forEach(Thread::start);
      start.countDown();
      Thread.sleep(RUN_MILLIS);
      stop.set(true);
      for (Thread t : threads) {
        t.join(TimeUnit.SECONDS.toMillis(20));
        if (t.isAlive()) {
          failures.add(t.getName() + " did not stop within 20 s");
        }
      }
      System.out.printf(
          "[stress] seed=%d mutations=%d reads=%d staleReads=%d tagCoincidences=%d stats=%s%n",
          seed,
          mutations.sum(),
          reads.sum(),
          staleReads.sum(),
          tagCoincidences.sum(),
          pile.stats());
      if (tagCoincidences.sum() > MAX_TAG_COINCIDENCES) {
        failures.add(
            tagCoincidences.sum()
                + " reads of handed-out pointers found no block start (seed="
                + seed
                + "): more than the tags' odds allow");
      }
      try {
        pile.verify();
      } catch (PileCorruptionException e) {
        failures.add("verify after the run: " + e.getMessage());
      }
      assertThat(failures).as("violations (seed=%d); first ones listed", seed).isEmpty();
      assertThat(mutations.sum()).as("the workload did run (seed=%d)", seed).isGreaterThan(1000);

      // quiescent: every owned entry reads back exactly, and the counters agree with the owners
      long live = 0;
      long payload = 0;
      for (Own[] own : owned) {
        for (Own o : own) {
          if (o != null) {
            live++;
            payload += o.length;
            checkValue(pile.getBytes(o.pointer), o.entryId, o.sequence, "final read");
          }
        }
      }
      PileStats atEnd = PileTestSupport.assertConsistent(pile, SEGMENT_BYTES);
      assertThat(atEnd.objectCount()).as("objectCount (seed=%d)", seed).isEqualTo(live);
      assertThat(atEnd.utilizedBytes()).as("utilizedBytes (seed=%d)", seed).isEqualTo(payload);
      long[] visited = new long[1];
      pile.forEach((p, kind, size) -> visited[0]++);
      assertThat(visited[0]).as("forEach count (seed=%d)", seed).isEqualTo(live);

      for (Own[] own : owned) {
        for (Own o : own) {
          if (o != null) {
            pile.delete(o.pointer);
          }
        }
      }
      PileStats empty = pile.stats();
      assertHoldsNothing(empty);
      assertStatsConsistent(empty, SEGMENT_BYTES);
      pile.verify();
    }
  }

  /**
   * One writer rewrites a 256 KiB value in place, always with the same size, each time filled with
   * one byte (a different one each time); readers use every read path. A read must see one fill
   * byte throughout (one version, never a mix) or throw StalePointerException. Same-size rewrites
   * are the case a size check alone cannot catch.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void sameSizeInPlaceUpdates_racingEveryReadPath_neverTearTheValue() throws Exception {
    seed = PileTestSupport.seed("sameSizeInPlaceUpdates_racingEveryReadPath");
    int size = 256 << 10;
    PileOptions options = PileOptions.builder().segmentBytes(4L << 20).stripes(2).build();
    try (Pile pile = Pile.offHeap(options)) {
      byte[] fill = new byte[size];
      long p = pile.put(fill);
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> threads = new ArrayList<>();
      threads.add(
          Thread.ofPlatform()
              .name("race-writer")
              .unstarted(
                  () ->
                      guarded(
                          () -> {
                            byte b = 0;
                            while (!stop.get()) {
                              java.util.Arrays.fill(fill, ++b);
                              pile.update(p, fill);
                              mutations.increment();
                            }
                          })));
      for (int r = 0; r < 3; r++) {
        SplittableRandom random = new SplittableRandom(seed + r);
        threads.add(
            Thread.ofPlatform()
                .name("race-reader-" + r)
                .unstarted(
                    () ->
                        guarded(
                            () -> {
                              while (!stop.get() && failures.size() < 20) {
                                int method = random.nextInt(6);
                                byte[] bytes;
                                try {
                                  bytes = readOwn(pile, p, method);
                                } catch (StalePointerException changedDuringTheRead) {
                                  staleReads.increment();
                                  continue;
                                }
                                reads.increment();
                                String problem =
                                    bytes.length != size ? "size " + bytes.length : mixedAt(bytes);
                                if (problem != null) {
                                  failures.add(
                                      "read method "
                                          + method
                                          + " of a value rewritten in place: "
                                          + problem);
                                }
                              }
                            })));
      }
      threads.forEach(Thread::start);
      Thread.sleep(RACE_MILLIS);
      stop.set(true);
      for (Thread t : threads) {
        t.join(20_000);
      }
      System.out.printf(
          "[race] seed=%d updates=%d reads=%d staleReads=%d%n",
          seed, mutations.sum(), reads.sum(), staleReads.sum());
      assertThat(failures).as("torn reads (seed=%d)", seed).isEmpty();
      assertThat(reads.sum()).as("reads happened").isPositive();
      PileStats s = PileTestSupport.assertConsistent(pile, 4L << 20);
      assertThat(s.objectCount()).isEqualTo(1);
      assertThat(s.linkCount()).isZero();
    }
  }

  /**
   * Delete-and-refill churn with more threads than cores must reuse freed space: the pile may not
   * grow past what the load took plus one bump segment per stripe. Each thread deletes and refills
   * entries spread over every stripe, so the freed blocks a thread needs are mostly in stripes
   * other threads are busy in; a pile that grows whenever such a stripe is locked fails this (it
   * grew by a third over ten cycles at 10M values).
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void deleteAndRefillChurn_underContention_reusesFreedSpace() throws Exception {
    int threads = 8;
    int stripes = 4;
    int perThread = 25_000;
    long segmentBytes = 64L << 10;
    PileOptions options = PileOptions.builder().segmentBytes(segmentBytes).stripes(stripes).build();
    try (Pile pile = Pile.offHeap(options)) {
      long[] pointers = new long[threads * perThread];
      byte[] value = new byte[32];
      runSliced(threads, perThread, i -> pointers[i] = pile.put(value));
      long loaded = pile.stats().capacityBytes();
      for (int cycle = 0; cycle < 10; cycle++) {
        long salt = cycle;
        runSliced(
            threads,
            perThread,
            i -> {
              if (inHalf(i, salt)) {
                pile.delete(pointers[i]);
              }
            });
        runSliced(
            threads,
            perThread,
            i -> {
              if (inHalf(i, salt)) {
                pointers[i] = pile.put(value);
              }
            });
      }
      PileStats after = PileTestSupport.assertConsistent(pile, segmentBytes);
      assertThat(after.objectCount()).isEqualTo(pointers.length);
      assertThat(after.capacityBytes())
          .as("capacity after ten churn cycles (after the load: %d)", loaded)
          .isLessThanOrEqualTo(loaded + stripes * segmentBytes);
    }
  }

  private interface IndexBody {
    void run(int index);
  }

  /** Runs {@code body} over {@code threads} slices, each walked in a scrambled order. */
  private void runSliced(int threads, int perThread, IndexBody body) throws InterruptedException {
    List<Thread> running = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int base = t * perThread;
      running.add(
          Thread.ofPlatform()
              .start(
                  () ->
                      guarded(
                          () -> {
                            for (int k = 0; k < perThread; k++) {
                              body.run(base + (int) ((k * 2_654_435_761L) % perThread));
                            }
                          })));
    }
    for (Thread thread : running) {
      thread.join();
    }
    assertThat(failures).isEmpty();
  }

  private static boolean inHalf(int index, long salt) {
    long h = (index + salt) * 0x9E3779B97F4A7C15L;
    h ^= h >>> 29;
    h *= 0xBF58476D1CE4E5B9L;
    return (h >>> 63) == 0;
  }

  /** Null if every byte equals the first, else where the bytes of two versions meet. */
  private static String mixedAt(byte[] bytes) {
    for (int i = 1; i < bytes.length; i++) {
      if (bytes[i] != bytes[0]) {
        return "torn: byte 0 is " + bytes[0] + " but byte " + i + " is " + bytes[i];
      }
    }
    return null;
  }

  private interface Body {
    void run() throws Exception;
  }

  private void guarded(Body body) {
    try {
      body.run();
    } catch (Throwable t) {
      failures.add(Thread.currentThread().getName() + " died (seed=" + seed + "): " + stackOf(t));
    }
  }

  private void writerLoop(
      Pile pile,
      AtomicReferenceArray<Slot> slots,
      Own[] own,
      int writer,
      SplittableRandom random,
      AtomicBoolean stop) {
    long serial = 0;
    int base = writer * SLOTS_PER_WRITER;
    while (!stop.get() && failures.size() < 20) {
      int action = random.nextInt(100);
      if (action < 45) {
        // read another thread's entry, which may be deleted or moved at this very moment
        int index = random.nextInt(slots.length());
        Slot slot = slots.get(index);
        if (slot != null) {
          readForeign(pile, slot, random.nextInt(6));
        }
        continue;
      }
      int i = random.nextInt(SLOTS_PER_WRITER);
      Own o = own[i];
      if (o == null) {
        o = new Own();
        o.entryId = ((long) writer << 40) | ++serial;
        o.sequence = 0;
        o.length = randomLength(random);
        byte[] value = checkedValue(o.entryId, o.sequence, o.length, random);
        int extra = random.nextInt(4) == 0 ? random.nextInt(2048) : 0;
        o.pointer = extra == 0 ? pile.put(value) : pile.put(value, extra);
        own[i] = o;
        slots.set(base + i, new Slot(o.pointer, o.entryId));
      } else if (action < 60) {
        checkValue(readOwn(pile, o.pointer, random.nextInt(6)), o.entryId, o.sequence, "own read");
      } else if (action < 70) {
        // shrink or keep the size: should be done in place
        o.sequence++;
        o.length = MIN_VALUE_BYTES + random.nextInt(Math.max(1, o.length - MIN_VALUE_BYTES + 1));
        pile.update(o.pointer, checkedValue(o.entryId, o.sequence, o.length, random));
      } else if (action < 82) {
        // grow well past any spare room: the value moves behind a link (or its link moves)
        o.sequence++;
        o.length = Math.min(64 << 10, o.length * (2 + random.nextInt(6)) + random.nextInt(64));
        pile.update(o.pointer, checkedValue(o.entryId, o.sequence, o.length, random));
      } else {
        // delete while the slot is still published, so that readers race the delete
        pile.delete(o.pointer);
        own[i] = null;
        slots.set(base + i, null);
      }
      mutations.increment();
    }
  }

  private static int randomLength(SplittableRandom random) {
    int r = random.nextInt(100);
    if (r < 70) {
      return MIN_VALUE_BYTES + random.nextInt(200);
    } else if (r < 95) {
      return MIN_VALUE_BYTES + random.nextInt(4000);
    }
    return MIN_VALUE_BYTES + random.nextInt(30_000);
  }

  private void readForeign(Pile pile, Slot slot, int method) {
    byte[] bytes;
    try {
      bytes = readOwn(pile, slot.pointer(), method);
    } catch (StalePointerException expected) {
      staleReads.increment();
      return;
    } catch (PointerException e) {
      if (isTagCoincidence(e)) {
        noteTagCoincidence(pile, slot.pointer(), e);
        return;
      }
      failures.add(
          "read of "
              + Long.toHexString(slot.pointer())
              + " (entry "
              + slot.entryId()
              + ", method "
              + method
              + "), a pointer that was handed out, threw "
              + e);
      return;
    } catch (RuntimeException e) {
      failures.add(
          "read of "
              + Long.toHexString(slot.pointer())
              + " (entry "
              + slot.entryId()
              + ", method "
              + method
              + ") threw "
              + stackOf(e));
      return;
    }
    reads.increment();
    String problem = checkedValueProblem(bytes, slot.entryId(), -1);
    if (problem != null) {
      failures.add(
          "foreign read, method "
              + method
              + ", pointer "
              + Long.toHexString(slot.pointer())
              + ": "
              + problem);
    }
  }

  // per-thread buffers large enough for any value of these tests, so that a concurrent growth
  // cannot overflow them
  private static final ThreadLocal<byte[]> HEAP_BUFFER =
      ThreadLocal.withInitial(() -> new byte[260 << 10]);
  private static final ThreadLocal<ByteBuffer> DIRECT_BUFFER =
      ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(260 << 10));

  /** Reads the bytes at {@code pointer} through one of six read paths. */
  private static byte[] readOwn(Pile pile, long pointer, int method) {
    return switch (method) {
      case 0 -> pile.getBytes(pointer);
      case 1 -> (byte[]) pile.get(pointer);
      case 2 -> {
        byte[] dst = HEAP_BUFFER.get();
        int n = pile.getBytes(pointer, dst, 0);
        yield java.util.Arrays.copyOf(dst, n);
      }
      case 3 -> {
        ByteBuffer dst = DIRECT_BUFFER.get().clear();
        int n = pile.read(pointer, dst);
        byte[] out = new byte[n];
        dst.flip().get(out);
        yield out;
      }
      case 4 -> pile.read(pointer, (kind, payload) -> payload.toArray(ValueLayout.JAVA_BYTE));
      default -> {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
          long n = pile.transferTo(pointer, Channels.newChannel(out));
          if (n != out.size()) {
            throw new AssertionError("transferTo returned " + n + " but wrote " + out.size());
          }
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        yield out.toByteArray();
      }
    };
  }

  /**
   * Counts a tag coincidence and prints the word now at the pointer's offset, for a diagnosis: a
   * coincidence finds random payload bytes there (if no writer has changed them since), a bug a
   * header or pile metadata.
   */
  private void noteTagCoincidence(Pile pile, long pointer, PointerException e) {
    tagCoincidences.increment();
    long word;
    try {
      word =
          ((OffHeapPile) pile)
              .segmentTable()
              .segmentAt(Pointers.segment(pointer))
              .memory()
              .get(ValueLayout.JAVA_LONG, Pointers.offsetBytes(pointer));
    } catch (RuntimeException gone) { // the segment was released since
      word = 0;
    }
    System.out.printf(
        "[stress] tag coincidence (seed=%d): %s; the word at its offset now: 0x%016x%n",
        seed, e.getMessage(), word);
  }

  /** Whether {@code e} is the failure a tag coincidence makes ({@link #tagCoincidences}). */
  private static boolean isTagCoincidence(PointerException e) {
    // NOT_A_BLOCK_START and SIZE_OUT_OF_RANGE: the tag matched, the rest of the word did not
    String message = e.getMessage();
    return e instanceof InvalidPointerException
        && message != null
        && message.startsWith("not a block start");
  }

  private void checkValue(byte[] bytes, long entryId, long sequence, String what) {
    String problem = checkedValueProblem(bytes, entryId, sequence);
    if (problem != null) {
      failures.add(what + " (seed=" + seed + "): " + problem);
      throw new AssertionError(what + ": " + problem);
    }
  }

  /** Walks and samples the pile while it changes: forEach, stats, reads of what it visits. */
  private void walkerLoop(Pile pile, AtomicBoolean stop) {
    while (!stop.get() && failures.size() < 20) {
      List<Long> visited = Collections.synchronizedList(new ArrayList<>());
      pile.forEach(
          (pointer, kind, size) -> {
            if (kind != ValueKind.BYTES || size < MIN_VALUE_BYTES) {
              failures.add(
                  "forEach visited "
                      + Long.toHexString(pointer)
                      + " kind "
                      + kind
                      + " size "
                      + size);
            }
            if (visited.size() < 200) {
              visited.add(pointer);
            }
          });
      for (long p : visited) {
        try {
          byte[] bytes = pile.getBytes(p);
          String problem = checkedValueProblem(bytes, ANY_ENTRY, -1);
          if (problem != null) {
            failures.add("read of a visited pointer " + Long.toHexString(p) + ": " + problem);
          }
        } catch (StalePointerException deletedSince) {
          staleReads.increment();
        } catch (PointerException e) {
          // the pointer was handed out, so once deleted it is stale, never invalid (but for the
          // tags' odds)
          if (isTagCoincidence(e)) {
            noteTagCoincidence(pile, p, e);
          } else {
            failures.add("read of a visited (so handed-out) pointer threw " + e);
          }
        }
      }
      PileStats s = pile.stats();
      // a snapshot under load need not be exact across stripes; only ranges are checked here
      if (s.objectCount() < 0
          || s.linkCount() < 0
          || s.utilizedBytes() < 0
          || !(s.availability() >= 0 && s.availability() <= 1)) {
        failures.add("inconsistent stats under load: " + s);
      }
      Thread.onSpinWait();
    }
  }

  private static String stackOf(Throwable t) {
    java.io.StringWriter w = new java.io.StringWriter();
    t.printStackTrace(new java.io.PrintWriter(w));
    String s = w.toString();
    return s.length() > 2000 ? s.substring(0, 2000) + "..." : s;
  }
}
