package dev.cairn.pile;

import static dev.cairn.pile.PileTestSupport.SAMPLE_MULTILINGUAL;
import static dev.cairn.pile.PileTestSupport.assertConsistent;
import static dev.cairn.pile.PileTestSupport.assertHoldsNothing;
import static dev.cairn.pile.PileTestSupport.assertStatsConsistent;
import static dev.cairn.pile.PileTestSupport.checkedValue;
import static dev.cairn.pile.PileTestSupport.checkedValueProblem;
import static dev.cairn.pile.PileTestSupport.describe;
import static dev.cairn.pile.PileTestSupport.multilingual;
import static dev.cairn.pile.PileTestSupport.randomBytes;
import static dev.cairn.pile.PileTestSupport.sameValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.foreign.ValueLayout;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The contract of {@link Pile}, run against every kind of pile: the behaviours the seed system's
 * own tests checked (see design/pile-lessons.md), plus the pointer-safety, budget, read-path and
 * lifecycle contract. Each concrete subclass says how to make a pile ({@link
 * #newPile(PileOptions)}), in the style of Lucene's {@code BaseDirectoryTestCase}: {@link
 * VolatilePileContractTest} for {@link Pile#offHeap}, and one subclass of {@link
 * PersistentPileContract} per {@link Durability} level for {@link Pile#open}.
 *
 * <p>Every pile a test opens with {@link #open(PileOptions)} is verified ({@link Pile#verify()} and
 * the stats arithmetic) and closed after the test; {@link #afterClose} then lets a subclass check
 * what outlives the close (a persistent pile reopens with the same contents).
 *
 * <p>Tests that make thousands of writes ask {@link #writes(int)} how many to make: a {@link
 * Durability#SYNC} pile forces its log on every write, so it makes fewer. Every assertion is
 * written in terms of the count actually made.
 *
 * <p>The tests use the public API, except the one test whose javadoc says it is white-box.
 */
abstract class PileContract {

  private static final long SEGMENT_1M = 1L << 20;
  private static final long SEGMENT_64K = 64L << 10;

  private record Opened(Pile pile, long segmentBytes) {}

  private final List<Opened> opened = new ArrayList<>();

  /** A new, empty pile of the kind under test, with {@code options}. */
  protected abstract Pile newPile(PileOptions options);

  /**
   * Whether each write is expensive: a {@link Durability#SYNC} pile forces its log before each
   * write returns. Tests that make thousands of writes then make fewer ({@link #writes(int)}).
   */
  protected boolean expensiveWrites() {
    return false;
  }

  /**
   * How many of {@code n} writes a test that makes many should make: {@code n}, or a hundredth of
   * it (at least 1) where {@linkplain #expensiveWrites() writes are expensive}.
   */
  protected final int writes(int n) {
    return expensiveWrites() ? Math.max(1, n / 100) : n;
  }

  /**
   * The words the message of the {@link IllegalArgumentException} must hold for a put of {@code
   * size} bytes that no block of this pile can take, in a pile of {@code segmentBytes} segments:
   * that it is the segment, and the size.
   */
  protected List<String> tooLargeMessageWords(int size, long segmentBytes) {
    return List.of("segment", String.valueOf(size));
  }

  /**
   * Called after the harness closed {@code pile}, which it had verified: {@code before} are its
   * stats just before the close. Nothing by default.
   */
  protected void afterClose(Pile pile, PileStats before) {}

  /** Opens a pile that is validated and closed after the test. */
  protected final Pile open(PileOptions options) {
    Pile pile = newPile(options);
    opened.add(new Opened(pile, options.segmentBytes()));
    return pile;
  }

  private Pile open(long segmentBytes, int stripes) {
    return open(PileOptions.builder().segmentBytes(segmentBytes).stripes(stripes).build());
  }

  @AfterEach
  void validateAndClose() {
    // every pile is closed even when one fails its checks: a persistent pile left open would
    // keep its directory locked and its threads running
    Throwable failure = null;
    for (Opened o : opened) {
      PileStats before = null;
      try {
        before = assertConsistent(o.pile(), o.segmentBytes());
      } catch (PileClosedException closedByTheTest) {
        // nothing to validate
      } catch (Throwable t) {
        failure = firstOf(failure, t);
      } finally {
        try {
          o.pile().close();
        } catch (PileClosedException alreadyClosed) {
          // a second close may report that the pile is closed
        } catch (Throwable t) {
          failure = firstOf(failure, t);
        }
      }
      if (before != null && failure == null) {
        try {
          afterClose(o.pile(), before);
        } catch (Throwable t) {
          failure = firstOf(failure, t);
        }
      }
    }
    if (failure instanceof Error e) {
      throw e;
    } else if (failure instanceof RuntimeException e) {
      throw e;
    } else if (failure != null) {
      throw new AssertionError(failure);
    }
  }

  private static Throwable firstOf(Throwable first, Throwable next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }

  // ====================================================================== stats

  @Test
  void stats_onNewPile_areZero() {
    Pile pile = open(SEGMENT_1M, 2);
    PileStats s = pile.stats();
    assertHoldsNothing(s);
    assertStatsConsistent(s, SEGMENT_1M);
    assertThat(s.availability())
        .as("availability with nothing allocated")
        .isCloseTo(1.0, within(1e-9));
    List<Long> visited = new ArrayList<>();
    pile.forEach((p, kind, size) -> visited.add(p));
    assertThat(visited).isEmpty();
    pile.verify();
  }

  @Test
  void stats_afterDeletingEverything_returnToZero() {
    fillGrowShrinkAndEmpty(open(SEGMENT_1M, 2), SEGMENT_1M);
  }

  @Test
  void aPileOnHugePages_behavesTheSame() {
    // huge pages change only where the memory comes from: the same workload, the same checks
    long segmentBytes = 4L << 20;
    fillGrowShrinkAndEmpty(
        open(PileOptions.builder().segmentBytes(segmentBytes).stripes(2).hugePages(true).build()),
        segmentBytes);
  }

  private void fillGrowShrinkAndEmpty(Pile pile, long segmentBytes) {
    SplittableRandom random = new SplittableRandom(1);
    List<Long> pointers = new ArrayList<>();
    int n = writes(3000);
    for (int i = 0; i < n; i++) {
      pointers.add(
          switch (i % 5) {
            case 0 -> pile.put(randomBytes(random, random.nextInt(3000)));
            case 1 -> pile.put(multilingual(random, random.nextInt(500)));
            case 2 -> pile.put((long) i);
            case 3 -> pile.put(randomBytes(random, random.nextInt(100)), random.nextInt(2000));
            default -> pile.put(randomBytes(random, 10));
          });
    }
    // some values grow through links, some shrink back
    for (int i = 0; i < pointers.size(); i += 7) {
      pile.update(pointers.get(i), randomBytes(random, 5000 + random.nextInt(20_000)));
    }
    for (int i = 0; i < pointers.size(); i += 21) {
      pile.update(pointers.get(i), randomBytes(random, 3));
    }
    PileStats full = assertConsistent(pile, segmentBytes);
    assertThat(full.objectCount()).isEqualTo(pointers.size());
    assertThat(full.linkCount()).as("updates beyond capacity must have made links").isPositive();

    for (long p : pointers) {
      pile.delete(p);
    }
    assertHoldsNothing(assertConsistent(pile, segmentBytes));
    for (long p : pointers) {
      assertThatThrownBy(() -> pile.get(p)).isInstanceOf(StalePointerException.class);
    }
  }

  @Test
  void availability_staysWithinZeroAndOne_andDropsWhenFreeSpaceFragments() {
    Pile pile = open(SEGMENT_1M, 1);
    List<Long> pointers = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(2);
    // holes far below 64 KiB either way; larger values fill the 8 segments in fewer writes
    int valueBytes = expensiveWrites() ? 16_000 : 1000;
    while (pile.stats().segmentCount() < 8) {
      pointers.add(pile.put(randomBytes(random, valueBytes)));
    }
    PileStats filled = assertConsistent(pile, SEGMENT_1M);
    for (int i = 0; i < pointers.size(); i += 2) {
      pile.delete(pointers.get(i));
    }
    PileStats fragmented = assertConsistent(pile, SEGMENT_1M);
    assertThat(fragmented.availability())
        .as(
            "%d-byte holes between live values cannot serve 64 KiB pieces: %s then %s",
            valueBytes, filled, fragmented)
        .isLessThan(filled.availability())
        .isLessThan(0.5);
    for (int i = 1; i < pointers.size(); i += 2) {
      pile.delete(pointers.get(i));
    }
    PileStats empty = assertConsistent(pile, SEGMENT_1M);
    assertThat(empty.availability())
        .as("free space is contiguous again: %s", empty)
        .isCloseTo(1.0, within(0.02));
  }

  // ====================================================================== pointers

  @Test
  void get_afterDelete_throwsStalePointer_fromEveryMethod() throws IOException {
    Pile pile = open(SEGMENT_1M, 2);
    long p = pile.put("soon gone");
    long keep = pile.put("kept");
    pile.delete(p);
    for (var call : everyPointerCall(pile, p).entrySet()) {
      assertThatThrownBy(call.getValue())
          .as(call.getKey() + " on a deleted pointer")
          .isInstanceOf(StalePointerException.class)
          .extracting(e -> ((PointerException) e).pointer())
          .isEqualTo(p);
    }
    assertThat(pile.getString(keep)).isEqualTo("kept");
    assertThat(pile.stats().objectCount()).isEqualTo(1);
  }

  @Test
  void get_withNullPointer_throwsInvalidPointer() {
    Pile pile = open(SEGMENT_1M, 2);
    pile.put("x");
    assertThatThrownBy(() -> pile.get(Pile.NULL)).isInstanceOf(InvalidPointerException.class);
    assertThatThrownBy(() -> pile.delete(Pile.NULL)).isInstanceOf(InvalidPointerException.class);
    assertThatThrownBy(() -> pile.get(-1L)).isInstanceOf(PointerException.class);
    assertThatThrownBy(() -> pile.get(Long.MIN_VALUE)).isInstanceOf(PointerException.class);
    assertThatThrownBy(() -> pile.get(Long.MAX_VALUE)).isInstanceOf(PointerException.class);
  }

  /** A pile with live, moved, preallocated and deleted values, for the forgery tests. */
  private record Population(
      Pile pile, Map<Long, Object> live, Set<Long> deleted, PileStats stats) {}

  private Population population(SplittableRandom random) {
    Pile pile = open(SEGMENT_1M, 2);
    Map<Long, Object> live = new LinkedHashMap<>();
    Set<Long> deleted = new HashSet<>();
    for (int i = 0; i < 400; i++) {
      Object value =
          switch (i % 4) {
            case 0, 1 -> randomBytes(random, random.nextInt(3000));
            case 2 -> multilingual(random, random.nextInt(300));
            default -> random.nextLong();
          };
      long p = i % 9 == 0 ? pile.put(value, 200) : pile.put(value);
      live.put(p, value);
    }
    List<Long> pointers = new ArrayList<>(live.keySet());
    for (int i = 0; i < pointers.size(); i += 5) {
      byte[] grown = randomBytes(random, 4000 + random.nextInt(4000));
      pile.update(pointers.get(i), grown);
      live.put(pointers.get(i), grown);
    }
    for (int i = 3; i < pointers.size(); i += 10) {
      pile.delete(pointers.get(i));
      live.remove(pointers.get(i));
      deleted.add(pointers.get(i));
    }
    return new Population(pile, live, deleted, pile.stats());
  }

  /**
   * Tries {@code forged} on the read methods (and, if {@code mutate}, on update and delete) and
   * records a violation unless each throws a {@link PointerException}. Returns false if {@code
   * forged} is a live pointer after all (and was not tried).
   */
  private static boolean expectRejected(
      Population pop, long forged, String how, boolean mutate, List<String> violations) {
    if (pop.live().containsKey(forged) || violations.size() >= 20) {
      return false;
    }
    Map<String, ThrowingCallable> calls = new LinkedHashMap<>();
    calls.put("get", () -> pop.pile().get(forged));
    calls.put("sizeOf", () -> pop.pile().sizeOf(forged));
    calls.put("read(ValueReader)", () -> pop.pile().read(forged, (k, m) -> m.byteSize()));
    if (mutate) {
      calls.put("update", () -> pop.pile().update(forged, new byte[] {6, 6, 6}));
      calls.put("delete", () -> pop.pile().delete(forged));
    }
    for (var call : calls.entrySet()) {
      try {
        call.getValue().call();
        violations.add(
            call.getKey() + "(0x" + Long.toHexString(forged) + ") [" + how + "] did not throw");
      } catch (PointerException expected) {
        if (pop.deleted().contains(forged) && !(expected instanceof StalePointerException)) {
          violations.add(
              call.getKey()
                  + " of deleted 0x"
                  + Long.toHexString(forged)
                  + " threw "
                  + expected
                  + " instead of StalePointerException");
        }
      } catch (Throwable t) {
        violations.add(
            call.getKey()
                + "(0x"
                + Long.toHexString(forged)
                + ") ["
                + how
                + "] threw "
                + stackOf(t));
      }
    }
    return true;
  }

  /** After forgeries: nothing changed, every live value reads back. */
  private static void assertUntouched(Population pop) {
    assertThat(pop.pile().stats()).isEqualTo(pop.stats());
    pop.pile().verify();
    for (var e : pop.live().entrySet()) {
      Object actual = pop.pile().get(e.getKey());
      assertThat(sameValue(actual, e.getValue()))
          .as(
              "value at 0x%s: %s, expected %s",
              Long.toHexString(e.getKey()), describe(actual), describe(e.getValue()))
          .isTrue();
    }
  }

  @Test
  void forgedPointer_randomLongs_neverReturnData(TestInfo info) {
    long seed = PileTestSupport.seed(info.getDisplayName());
    SplittableRandom random = new SplittableRandom(seed);
    Population pop = population(random);
    List<String> violations = new ArrayList<>();
    int tried = 0;
    for (int i = 0; i < 50_000; i++) {
      tried += expectRejected(pop, random.nextLong(), "random", i % 10 == 0, violations) ? 1 : 0;
    }
    assertThat(tried).isGreaterThan(49_000);
    for (long special : new long[] {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 8, 64}) {
      expectRejected(pop, special, "special", true, violations);
    }
    assertThat(violations).as("seed=%d", seed).isEmpty();
    assertUntouched(pop);
  }

  @Test
  void forgedPointer_withAnySingleBitFlipped_neverReturnsData(TestInfo info) {
    long seed = PileTestSupport.seed(info.getDisplayName());
    Population pop = population(new SplittableRandom(seed));
    List<String> violations = new ArrayList<>();
    int n = 0;
    int tried = 0;
    for (long p : List.copyOf(pop.live().keySet())) {
      for (int bit = 0; bit < 64; bit++) {
        // flips the tag bits, the segment bits and the offset bits, whichever they are
        tried +=
            expectRejected(
                    pop,
                    p ^ (1L << bit),
                    "0x" + Long.toHexString(p) + " with bit " + bit + " flipped",
                    n++ % 5 == 0,
                    violations)
                ? 1
                : 0;
      }
    }
    assertThat(tried).as("flipped pointers tried").isGreaterThan(pop.live().size() * 60);
    for (long p : pop.deleted()) {
      for (int bit = 0; bit < 64; bit++) {
        expectRejected(
            pop,
            p ^ (1L << bit),
            "deleted 0x" + Long.toHexString(p) + " with bit " + bit + " flipped",
            false,
            violations);
      }
    }
    assertThat(violations).as("seed=%d", seed).isEmpty();
    assertUntouched(pop);
  }

  @Test
  void forgedPointer_offsetByUpTo4096OrAPowerOfTwo_neverReturnsData(TestInfo info) {
    long seed = PileTestSupport.seed(info.getDisplayName());
    Population pop = population(new SplittableRandom(seed));
    List<String> violations = new ArrayList<>();
    List<Long> pointers = List.copyOf(pop.live().keySet());
    int tried = 0;
    for (int i = 0; i < pointers.size(); i++) {
      long p = pointers.get(i);
      // pointer + 1, and pointers into the middle of this value and of its neighbours
      int reach = i < 20 ? 4096 : 64;
      for (long d = 1; d <= reach; d++) {
        tried +=
            expectRejected(
                    pop, p + d, "0x" + Long.toHexString(p) + " + " + d, d % 97 == 0, violations)
                ? 1
                : 0;
        expectRejected(pop, p - d, "0x" + Long.toHexString(p) + " - " + d, false, violations);
      }
      for (int shift = 0; shift < 63; shift++) {
        expectRejected(
            pop,
            p + (3L << shift),
            "0x" + Long.toHexString(p) + " + 3 << " + shift,
            false,
            violations);
      }
    }
    assertThat(violations).as("seed=%d", seed).isEmpty();
    assertThat(tried).as("offset pointers tried").isGreaterThan(pointers.size() * 50);
    assertUntouched(pop);
  }

  @Test
  void pointerIntoTheMiddleOfAnotherValue_throwsPointerException() {
    Pile pile = open(SEGMENT_1M, 1);
    // payloads of all zero and all one bits: whatever a header looks like, not a valid one
    byte[] zeros = new byte[20_000];
    byte[] ones = new byte[20_000];
    Arrays.fill(ones, (byte) 0xFF);
    long before = pile.put(new byte[16]);
    long z = pile.put(zeros);
    long o = pile.put(ones);
    long after = pile.put(new byte[16]);
    List<String> violations = new ArrayList<>();
    Set<Long> live = Set.of(before, z, o, after);
    for (long p : List.of(z, o)) {
      for (long d = 1; d < 20_000; d++) {
        long forged = p + d;
        if (live.contains(forged)) {
          continue;
        }
        try {
          Object v = pile.get(forged);
          violations.add("get(0x" + Long.toHexString(p) + " + " + d + ") returned " + describe(v));
        } catch (PointerException expected) {
          // the pointer addresses no block start
        }
        if (violations.size() > 10) {
          break;
        }
      }
    }
    assertThat(violations).isEmpty();
    assertThat(pile.getBytes(z)).isEqualTo(zeros);
    assertThat(pile.getBytes(o)).isEqualTo(ones);
  }

  /**
   * White-box (uses {@link Pointers} and {@link BlockLayout}): a value whose payload is full of
   * words shaped like a live block header with the value's own tag. A pointer into that payload
   * differs from the real pointer only in its offset bits, so a tag check alone accepts it and
   * returns payload bytes as if they were a value. The pile must know where blocks start.
   */
  @Test
  void pointerIntoAPayloadThatMimicsABlockHeader_throwsPointerException() {
    Pile pile = open(SEGMENT_1M, 1);
    long p = pile.put(new byte[512]);
    long neighbour = pile.put("after");
    long fakeHeader = BlockLayout.liveHeader(Pointers.tag(p), BlockLayout.KIND_BYTES, 4, 0, false);
    ByteBuffer crafted = ByteBuffer.allocate(512).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    while (crafted.hasRemaining()) {
      crafted.putLong(fakeHeader);
    }
    pile.update(p, crafted.array()); // same size: rewritten in place
    List<String> violations = new ArrayList<>();
    for (long d = 1; d < 512 / Pointers.GRANULE_BYTES; d++) {
      long forged = p + d; // same tag and segment, offset d granules further on
      try {
        Object v = pile.get(forged);
        violations.add("get(pointer + " + d + " granules) returned " + describe(v));
      } catch (PointerException expected) {
        // not a block start
      }
    }
    assertThat(violations).isEmpty();
    assertThat(pile.getString(neighbour)).isEqualTo("after");
  }

  @Test
  void stalePointer_afterDeleteAndReuseOfTheSameSpace_throwsAndNeverReturnsTheNewValue(
      TestInfo info) {
    long seed = PileTestSupport.seed(info.getDisplayName());
    SplittableRandom random = new SplittableRandom(seed);
    Pile pile = open(SEGMENT_1M, 1);
    long neighbour = pile.put("neighbour");
    int n = writes(3000);
    for (int i = 0; i < n; i++) {
      int size = i % 3 == 0 ? random.nextInt(40) : random.nextInt(5000);
      long old = pile.put(checkedValue(i * 2L, 0, 28 + size, random));
      pile.delete(old);
      long reused = pile.put(checkedValue(i * 2L + 1, 0, 28 + size, random));
      assertThat(reused)
          .as("seed=%d: the pile handed out the deleted pointer again", seed)
          .isNotEqualTo(old);
      assertThatThrownBy(() -> pile.get(old))
          .as(
              "seed=%d, iteration %d: stale pointer 0x%s after reuse by 0x%s",
              seed, i, Long.toHexString(old), Long.toHexString(reused))
          .isInstanceOf(StalePointerException.class);
      assertThat(checkedValueProblem(pile.getBytes(reused), i * 2L + 1, 0)).isNull();
      pile.delete(reused);
    }
    assertThat(pile.getString(neighbour)).isEqualTo("neighbour");
  }

  @Test
  void stalePointers_intoCoalescedAndResplitSpace_throwStalePointer() {
    Pile pile = open(SEGMENT_1M, 1);
    SplittableRandom random = new SplittableRandom(3);
    long guardBefore = pile.put("guard");
    List<Long> small = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      small.add(pile.put(randomBytes(random, 40)));
    }
    long guardAfter = pile.put("guard");
    for (long p : small) {
      pile.delete(p);
    }
    // the 64 freed neighbours coalesce; new values of other sizes cover their old starts
    List<Long> reusers = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      reusers.add(pile.put(randomBytes(random, 100 + 37 * i)));
    }
    for (long p : small) {
      assertThatThrownBy(() -> pile.get(p))
          .as("deleted 0x%s", Long.toHexString(p))
          .isInstanceOf(StalePointerException.class);
      assertThatThrownBy(() -> pile.delete(p)).isInstanceOf(StalePointerException.class);
      assertThatThrownBy(() -> pile.update(p, "x")).isInstanceOf(StalePointerException.class);
    }
    assertThat(pile.getString(guardBefore)).isEqualTo("guard");
    assertThat(pile.getString(guardAfter)).isEqualTo("guard");
    assertThat(pile.stats().objectCount()).isEqualTo(2 + reusers.size());
  }

  // ====================================================================== round trips

  @Test
  void checkerboardDeletes_leaveTheRestIntact() {
    Pile pile = open(SEGMENT_1M, 2);
    SplittableRandom random = new SplittableRandom(4);
    List<Long> pointers = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    int n = writes(6000) & ~1; // even: half are deleted
    for (int i = 0; i < n; i++) {
      byte[] v = randomBytes(random, 1 + random.nextInt(600));
      values.add(v);
      pointers.add(pile.put(v));
    }
    long keptBytes = 0;
    for (int i = 0; i < pointers.size(); i++) {
      if (i % 2 == 0) {
        pile.delete(pointers.get(i));
      } else {
        keptBytes += values.get(i).length;
      }
    }
    PileStats s = assertConsistent(pile, SEGMENT_1M);
    assertThat(s.objectCount()).isEqualTo(n / 2);
    assertThat(s.utilizedBytes()).isEqualTo(keptBytes);
    for (int i = 0; i < pointers.size(); i++) {
      long p = pointers.get(i);
      if (i % 2 == 0) {
        assertThatThrownBy(() -> pile.get(p)).isInstanceOf(StalePointerException.class);
      } else {
        assertThat(pile.getBytes(p)).as("value %d", i).isEqualTo(values.get(i));
      }
    }
    // the holes take new values without disturbing the survivors
    for (int i = 0; i < n / 2; i++) {
      pile.put(randomBytes(random, 1 + random.nextInt(300)));
    }
    for (int i = 1; i < pointers.size(); i += 2) {
      assertThat(pile.getBytes(pointers.get(i)))
          .as("value %d after refill", i)
          .isEqualTo(values.get(i));
    }
  }

  @Test
  void values_from1ByteTo150KB_roundTrip() {
    Pile pile = open(SEGMENT_1M, 2);
    List<Integer> sizes = new ArrayList<>();
    for (int s = 0; s <= 1100; s++) {
      sizes.add(s);
    }
    for (int k = 10; k <= 17; k++) {
      for (int d = -9; d <= 9; d++) {
        sizes.add((1 << k) + d);
      }
    }
    for (int s = 1200; s <= 150 * 1024; s = s * 5 / 4 + 3) {
      sizes.add(s);
    }
    sizes.add(150 * 1024);
    SplittableRandom random = new SplittableRandom(5);
    Map<Long, byte[]> stored = new LinkedHashMap<>();
    for (int size : sizes) {
      byte[] v = randomBytes(random, size);
      long p = pile.put(v);
      assertThat(pile.sizeOf(p)).isEqualTo(size);
      assertThat(pile.getBytes(p)).as("size %d", size).isEqualTo(v);
      stored.put(p, v);
    }
    for (var e : stored.entrySet()) {
      assertThat((byte[]) pile.get(e.getKey()))
          .as("size %d reread", e.getValue().length)
          .isEqualTo(e.getValue());
    }
    assertThat(pile.stats().utilizedBytes())
        .isEqualTo(stored.values().stream().mapToLong(v -> v.length).sum());
  }

  @Test
  void strings_multilingualAndEmpty_roundTrip() {
    Pile pile = open(SEGMENT_1M, 2);
    for (String s :
        List.of("", "a", SAMPLE_MULTILINGUAL, "\u0000nul\u0000", "\ud83d\ude00".repeat(1000))) {
      long p = pile.put(s);
      assertThat(pile.getString(p)).isEqualTo(s);
      assertThat(pile.get(p)).isEqualTo(s);
      assertThat(pile.kindOf(p)).isEqualTo(ValueKind.STRING);
      assertThat(pile.sizeOf(p)).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
    }
    long empty = pile.put(new byte[0]);
    assertThat(pile.getBytes(empty)).isEmpty();
    assertThat(pile.kindOf(empty)).isEqualTo(ValueKind.BYTES);
  }

  @Test
  void string_ofOneMillionMultilingualChars_roundTrips(TestInfo info) {
    long seed = PileTestSupport.seed(info.getDisplayName());
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder sb = new StringBuilder(1_000_000);
    while (sb.length() < 1_000_000 - 1) {
      sb.appendCodePoint(PileTestSupport.randomCodePoint(random));
    }
    while (sb.length() < 1_000_000) {
      sb.append('z');
    }
    String big = sb.toString();
    byte[] utf8 = big.getBytes(StandardCharsets.UTF_8);
    Pile pile = open(8L << 20, 1);
    long p = pile.put(big);
    assertThat(pile.sizeOf(p)).isEqualTo(utf8.length);
    assertThat(pile.getString(p)).as("seed=%d", seed).isEqualTo(big);
    assertThat(pile.getBytes(p)).isEqualTo(utf8);
    assertThat(pile.stats().utilizedBytes()).isEqualTo(utf8.length);
  }

  @Test
  void update_toAnotherKind_changesKindAndValue() {
    Pile pile = open(SEGMENT_1M, 2);
    long p = pile.put(new byte[] {1, 2, 3});
    pile.update(p, "now a string \ud83d\ude00");
    assertThat(pile.kindOf(p)).isEqualTo(ValueKind.STRING);
    assertThat(pile.getString(p)).isEqualTo("now a string \ud83d\ude00");
    pile.update(p, 42);
    assertThat(pile.kindOf(p)).isEqualTo(ValueKind.OBJECT);
    assertThat(pile.get(p, Integer.class)).isEqualTo(42);
    pile.update(p, new byte[0]);
    assertThat(pile.kindOf(p)).isEqualTo(ValueKind.BYTES);
    assertThat(pile.getBytes(p)).isEmpty();
    assertThat(pile.stats().objectCount()).isEqualTo(1);
  }

  // ====================================================================== capacity and links

  @Test
  void preallocatedBlock_takesInPlaceUpdates_withoutLinks() {
    Pile pile = open(SEGMENT_1M, 1);
    SplittableRandom random = new SplittableRandom(6);
    long p = pile.put(randomBytes(random, 100), 1000);
    long neighbour = pile.put(randomBytes(random, 100));
    PileStats start = pile.stats();
    assertThat(start.utilizedBytes()).isEqualTo(200);
    for (int size : new int[] {50, 500, 1100, 0, 1099, 1, 1100, 100}) {
      byte[] v = randomBytes(random, size);
      pile.update(p, v);
      PileStats s = pile.stats();
      assertThat(pile.getBytes(p)).isEqualTo(v);
      assertThat(s.linkCount()).as("update to %d bytes within 1100 preallocated", size).isZero();
      assertThat(s.objectCount()).isEqualTo(2);
      assertThat(s.allocatedBytes())
          .as("in place: no new block for %d bytes", size)
          .isEqualTo(start.allocatedBytes());
      assertThat(s.utilizedBytes()).isEqualTo(size + 100);
    }
    pile.update(p, randomBytes(random, 5000));
    assertThat(pile.stats().linkCount()).as("5000 bytes exceed the preallocated room").isEqualTo(1);
    assertThat(pile.sizeOf(neighbour)).isEqualTo(100);
  }

  @Test
  void valueGrowingThroughLink_keepsObjectCount_andShrinkingBackRestoresUtilization() {
    Pile pile = open(SEGMENT_1M, 1);
    SplittableRandom random = new SplittableRandom(7);
    byte[] small = randomBytes(random, 100);
    long p = pile.put(small);
    long neighbour = pile.put(randomBytes(random, 100)); // blocks growth in place
    PileStats two = pile.stats();

    byte[] grown = randomBytes(random, 5000);
    pile.update(p, grown);
    PileStats linked = assertConsistent(pile, SEGMENT_1M);
    assertThat(linked.objectCount()).isEqualTo(2);
    assertThat(linked.linkCount()).isEqualTo(1);
    assertThat(linked.utilizedBytes()).isEqualTo(5100);
    assertThat(pile.getBytes(p)).isEqualTo(grown);
    assertThat(pile.sizeOf(p)).isEqualTo(5000);

    pile.delete(neighbour);
    // growing again moves the value again; it is still one object with one link, not a chain
    for (int size : new int[] {20_000, 60_000, 3000, 90_000}) {
      byte[] v = randomBytes(random, size);
      pile.update(p, v);
      PileStats s = assertConsistent(pile, SEGMENT_1M);
      assertThat(s.objectCount()).isEqualTo(1);
      assertThat(s.linkCount()).as("after update to %d", size).isEqualTo(1);
      assertThat(s.utilizedBytes()).isEqualTo(size);
      assertThat(pile.getBytes(p)).isEqualTo(v);
    }
    Map<Long, Integer> visited = new HashMap<>();
    pile.forEach((q, kind, size) -> visited.merge(q, size, (a, b) -> -1));
    assertThat(visited)
        .as("a linked value is listed once, under its own pointer")
        .containsExactly(Map.entry(p, 90_000));

    pile.update(p, small);
    PileStats back = assertConsistent(pile, SEGMENT_1M);
    assertThat(back.objectCount()).isEqualTo(1);
    assertThat(back.linkCount()).as("the value fits its own block again").isZero();
    assertThat(back.utilizedBytes()).isEqualTo(100);
    assertThat(back.allocatedBytes())
        .as("the link target is freed")
        .isEqualTo(two.allocatedBytes() / 2);
    assertThat(pile.getBytes(p)).isEqualTo(small);

    pile.delete(p);
    assertHoldsNothing(assertConsistent(pile, SEGMENT_1M));
  }

  @Test
  void update_growingIntoTheHoleJustBeforeIt_keepsTheAllocatorConsistent() {
    // The hole left by a deleted predecessor is exactly the size the grown value needs, so
    // the move is likely to land there. Sizes from 1 to 1000 cover whatever the block rounding.
    Pile pile = open(SEGMENT_1M, 1);
    SplittableRandom random = new SplittableRandom(16);
    for (int size = 1; size <= 1000; size += (size < 200 ? 1 : 37)) {
      byte[] grown = randomBytes(random, size + 24);
      long before = pile.put(randomBytes(random, size + 24));
      long p = pile.put(new byte[] {1});
      long after = pile.put(new byte[] {2});
      pile.delete(before);
      pile.update(p, grown);
      assertThat(pile.getBytes(p)).isEqualTo(grown);
      assertThatCode(pile::verify)
          .as("verify after growing into a %d-byte hole", size + 24)
          .doesNotThrowAnyException();
      pile.update(p, new byte[] {3});
      pile.delete(p);
      assertThat(pile.getBytes(after)).isEqualTo(new byte[] {2});
      pile.delete(after);
      assertHoldsNothing(assertConsistent(pile, SEGMENT_1M));
    }
  }

  @Test
  void forEach_visitsEachEntryOnce() {
    Pile pile = open(SEGMENT_1M, 4);
    SplittableRandom random = new SplittableRandom(8);
    Map<Long, Object> live = new HashMap<>();
    int n = writes(5000);
    for (int i = 0; i < n; i++) {
      Object v =
          switch (i % 3) {
            case 0 -> randomBytes(random, random.nextInt(800));
            case 1 -> multilingual(random, random.nextInt(100));
            default -> (double) i;
          };
      live.put(pile.put(v), v);
    }
    List<Long> pointers = new ArrayList<>(live.keySet());
    for (int i = 0; i < pointers.size(); i += 11) {
      byte[] grown = randomBytes(random, 3000);
      pile.update(pointers.get(i), grown);
      live.put(pointers.get(i), grown);
    }
    for (int i = 5; i < pointers.size(); i += 4) {
      pile.delete(pointers.get(i));
      live.remove(pointers.get(i));
    }
    Map<Long, Integer> count = new HashMap<>();
    Map<Long, Integer> sizes = new HashMap<>();
    Map<Long, ValueKind> kinds = new HashMap<>();
    pile.forEach(
        (p, kind, size) -> {
          count.merge(p, 1, Integer::sum);
          sizes.put(p, size);
          kinds.put(p, kind);
        });
    assertThat(count.values()).as("each entry once").allMatch(c -> c == 1);
    assertThat(count.keySet()).containsExactlyInAnyOrderElementsOf(live.keySet());
    for (var e : live.entrySet()) {
      assertThat(kinds.get(e.getKey())).isEqualTo(PileTestSupport.kindOf(e.getValue()));
      assertThat(sizes.get(e.getKey())).isEqualTo(pile.sizeOf(e.getKey()));
    }
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void forEach_over200kEntries_takesLinearTime() {
    Pile pile = open(PileOptions.defaults());
    int entries = writes(200_000);
    for (int i = 0; i < entries; i++) {
      pile.put(i);
    }
    long[] n = new long[1];
    long start = System.nanoTime();
    pile.forEach((p, kind, size) -> n[0]++);
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(n[0]).isEqualTo(entries);
    // linear is a few ms; quadratic (the seed system's flaw) would take minutes
    assertThat(millis).as("forEach over %d entries", entries).isLessThan(3000);
  }

  // ====================================================================== budget and limits

  @Test
  void put_beyondBudget_throwsPileFull_andLeavesThePileIntact() {
    Pile pile =
        open(
            PileOptions.builder()
                .segmentBytes(SEGMENT_64K)
                .maxMemoryBytes(4 * SEGMENT_64K)
                .stripes(1)
                .build());
    SplittableRandom random = new SplittableRandom(9);
    Map<Long, byte[]> stored = new LinkedHashMap<>();
    PileFullException full = null;
    for (int i = 0; i < 10_000 && full == null; i++) {
      byte[] v = randomBytes(random, 1000);
      try {
        stored.put(pile.put(v), v);
      } catch (PileFullException e) {
        full = e;
      }
    }
    assertThat(full).as("a 256 KiB budget must run out").isNotNull();
    assertThat(stored.size()).as("values that fit 4 segments of 64 KiB").isBetween(200, 262);
    PileStats before = assertConsistent(pile, SEGMENT_64K);
    assertThat(before.capacityBytes()).isLessThanOrEqualTo(4 * SEGMENT_64K);

    assertThatThrownBy(() -> pile.put(new byte[1000])).isInstanceOf(PileFullException.class);
    assertThatThrownBy(() -> pile.put(new byte[30_000])).isInstanceOf(PileFullException.class);
    assertThatThrownBy(() -> pile.put(new byte[10], 30_000)).isInstanceOf(PileFullException.class);
    long first = stored.keySet().iterator().next();
    assertThatThrownBy(() -> pile.update(first, new byte[30_000]))
        .isInstanceOf(PileFullException.class);
    assertThat(pile.stats()).as("a failed put or update changes nothing").isEqualTo(before);
    pile.verify();
    for (var e : stored.entrySet()) {
      assertThat(pile.getBytes(e.getKey())).isEqualTo(e.getValue());
    }

    // space freed within the budget is usable again
    List<Long> pointers = new ArrayList<>(stored.keySet());
    for (int i = 0; i < 40; i++) {
      pile.delete(pointers.get(i));
      stored.remove(pointers.get(i));
    }
    for (int i = 0; i < 30; i++) {
      byte[] v = randomBytes(random, 1000);
      stored.put(pile.put(v), v);
    }
    for (var e : stored.entrySet()) {
      assertThat(pile.getBytes(e.getKey())).isEqualTo(e.getValue());
    }
  }

  @Test
  void put_largerThanASegment_throwsIllegalArgument_withAClearMessage() {
    Pile pile = open(SEGMENT_64K, 1);
    long p = pile.put("small");
    PileStats before = pile.stats();
    for (int size : new int[] {64 << 10, 100_000, 1 << 20}) {
      assertThatThrownBy(() -> pile.put(new byte[size]))
          .isInstanceOf(ValueTooLargeException.class)
          .hasMessageContainingAll(tooLargeMessageWords(size, SEGMENT_64K).toArray(String[]::new))
          .satisfies(
              e -> {
                ValueTooLargeException tooLarge = (ValueTooLargeException) e;
                assertThat(tooLarge.limit()).isEqualTo(ValueTooLargeException.Limit.SEGMENT);
                assertThat(tooLarge.sizeBytes()).isEqualTo(size);
                assertThat(tooLarge.limitBytes()).isEqualTo(SEGMENT_64K - 72);
              });
    }
    assertThatThrownBy(() -> pile.put("x".repeat(70_000)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("segment");
    assertThatThrownBy(() -> pile.put(new byte[10], 1 << 20))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("segment");
    assertThatThrownBy(() -> pile.update(p, new byte[100_000]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("segment");
    assertThat(pile.stats()).isEqualTo(before);
    assertThat(pile.getString(p)).isEqualTo("small");
    long half = pile.put(new byte[32 << 10]);
    assertThat(pile.sizeOf(half)).isEqualTo(32 << 10);
  }

  @Test
  void emptySegments_areReturnedToTheOs() {
    Pile pile = open(SEGMENT_64K, 1);
    SplittableRandom random = new SplittableRandom(10);
    List<Long> pointers = new ArrayList<>();
    int valueBytes = expensiveWrites() ? 12_000 : 1000; // fewer writes fill the 20 segments
    while (pile.stats().segmentCount() < 20) {
      pointers.add(pile.put(randomBytes(random, valueBytes)));
    }
    PileStats filled = pile.stats();
    // delete from the middle outwards so that segments empty in no particular order
    for (int i = 0; i < pointers.size(); i += 2) {
      pile.delete(pointers.get(i));
    }
    for (int i = 1; i < pointers.size(); i += 2) {
      pile.delete(pointers.get(i));
    }
    PileStats empty = assertConsistent(pile, SEGMENT_64K);
    assertHoldsNothing(empty);
    assertThat(empty.segmentCount())
        .as("at most one spare segment per stripe may stay: %s after %s", empty, filled)
        .isLessThanOrEqualTo(1);
    assertThat(empty.capacityBytes()).isLessThan(filled.capacityBytes());
  }

  @Test
  void freeSpace_isReused_overTenDeleteAndRefillCycles(TestInfo info) {
    long seed = PileTestSupport.seed(info.getDisplayName());
    SplittableRandom random = new SplittableRandom(seed);
    Pile pile = open(SEGMENT_1M, 1);
    List<Long> live = new ArrayList<>();
    int half = writes(3000);
    for (int i = 0; i < 2 * half; i++) {
      live.add(pile.put(randomBytes(random, 16 + random.nextInt(3000))));
    }
    long firstCapacity = pile.stats().capacityBytes();
    for (int cycle = 1; cycle <= 10; cycle++) {
      for (int i = 0; i < half; i++) {
        int victim = random.nextInt(live.size());
        pile.delete(live.get(victim));
        live.set(victim, live.getLast());
        live.removeLast();
      }
      for (int i = 0; i < half; i++) {
        live.add(pile.put(randomBytes(random, 16 + random.nextInt(3000))));
      }
      PileStats s = assertConsistent(pile, SEGMENT_1M);
      assertThat(s.capacityBytes())
          .as(
              "seed=%d cycle %d: capacity %d vs %d after the first fill",
              seed, cycle, s.capacityBytes(), firstCapacity)
          // 10%, or one segment where a segment is more than 10% of this small pile (the pile
          // keeps one wholly free spare segment on purpose); the bench measures it at scale
          .isLessThanOrEqualTo(firstCapacity + Math.max(firstCapacity / 10, SEGMENT_1M));
    }
  }

  // ====================================================================== read paths

  @Test
  void read_intoHeapAndDirectByteBuffers_copiesTheBytes_andAdvancesThePosition() {
    Pile pile = open(SEGMENT_1M, 2);
    byte[] v = randomBytes(new SplittableRandom(11), 3333);
    long p = pile.put(v);
    for (ByteBuffer dst : List.of(ByteBuffer.allocate(4000), ByteBuffer.allocateDirect(4000))) {
      dst.position(17);
      assertThat(pile.read(p, dst)).isEqualTo(3333);
      assertThat(dst.position()).isEqualTo(17 + 3333);
      byte[] copy = new byte[3333];
      dst.get(17, copy);
      assertThat(copy).isEqualTo(v);
    }
    long s = pile.put(SAMPLE_MULTILINGUAL);
    ByteBuffer direct = ByteBuffer.allocateDirect(1000);
    int n = pile.read(s, direct);
    assertThat(StandardCharsets.UTF_8.decode(direct.flip()).toString())
        .isEqualTo(SAMPLE_MULTILINGUAL);
    assertThat(n).isEqualTo(SAMPLE_MULTILINGUAL.getBytes(StandardCharsets.UTF_8).length);
  }

  @Test
  void read_intoTooSmallByteBuffer_throwsBufferOverflow_andLeavesItUnchanged() {
    Pile pile = open(SEGMENT_1M, 2);
    long p = pile.put(new byte[100]);
    for (ByteBuffer dst : List.of(ByteBuffer.allocate(120), ByteBuffer.allocateDirect(120))) {
      dst.position(30);
      for (int i = 30; i < 120; i++) {
        dst.put(i, (byte) 7);
      }
      assertThatThrownBy(() -> pile.read(p, dst)).isInstanceOf(BufferOverflowException.class);
      assertThat(dst.position()).isEqualTo(30);
      assertThat(dst.limit()).isEqualTo(120);
      for (int i = 30; i < 120; i++) {
        assertThat(dst.get(i)).isEqualTo((byte) 7);
      }
    }
  }

  @Test
  void transferTo_writesTheBytesToAChannel() throws IOException {
    Pile pile = open(SEGMENT_1M, 2);
    byte[] v = randomBytes(new SplittableRandom(12), 200_000);
    long p = pile.put(v);
    long s = pile.put(SAMPLE_MULTILINGUAL);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(pile.transferTo(p, Channels.newChannel(out))).isEqualTo(200_000);
    assertThat(out.toByteArray()).isEqualTo(v);
    out.reset();
    pile.transferTo(s, Channels.newChannel(out));
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(SAMPLE_MULTILINGUAL);
  }

  @Test
  void read_withValueReader_seesABoundedReadOnlyViewOfThePayload() {
    Pile pile = open(SEGMENT_1M, 2);
    byte[] v = randomBytes(new SplittableRandom(13), 777);
    long p = pile.put(v, 500);
    long s = pile.put("h\u00e9llo");
    record Seen(ValueKind kind, long size, boolean readOnly, byte[] bytes) {}
    ValueReader<Seen> look =
        (kind, payload) ->
            new Seen(
                kind,
                payload.byteSize(),
                payload.isReadOnly(),
                payload.toArray(ValueLayout.JAVA_BYTE));
    Seen bytes = pile.read(p, look);
    assertThat(bytes.kind()).isEqualTo(ValueKind.BYTES);
    assertThat(bytes.size()).as("bounded to the value, not its capacity").isEqualTo(777);
    assertThat(bytes.readOnly()).isTrue();
    assertThat(bytes.bytes()).isEqualTo(v);
    Seen string = pile.read(s, look);
    assertThat(string.kind()).isEqualTo(ValueKind.STRING);
    assertThat(string.bytes()).isEqualTo("h\u00e9llo".getBytes(StandardCharsets.UTF_8));

    // inside the reader: the view ends at the value, and cannot be written
    record Probe(String beyondEnd, String write) {}
    Probe probe =
        pile.read(
            p,
            (kind, payload) ->
                new Probe(
                    outcome(() -> payload.get(ValueLayout.JAVA_BYTE, payload.byteSize())),
                    outcome(() -> payload.set(ValueLayout.JAVA_BYTE, 0, (byte) 1))));
    assertThat(probe.beyondEnd()).isEqualTo("IndexOutOfBoundsException");
    assertThat(probe.write()).isIn("UnsupportedOperationException", "IllegalArgumentException");
    assertThat(pile.getBytes(p)).as("a reader cannot write").isEqualTo(v);
  }

  /** The simple name of what {@code call} throws, or "returned". */
  private static String outcome(Runnable call) {
    try {
      call.run();
      return "returned";
    } catch (RuntimeException e) {
      return e.getClass().getSimpleName();
    }
  }

  @Test
  void getBytes_intoTooSmallArray_throwsIllegalArgument_andCopiesNothing() {
    Pile pile = open(SEGMENT_1M, 2);
    byte[] v = randomBytes(new SplittableRandom(14), 64);
    long p = pile.put(v);
    byte[] exact = new byte[64];
    assertThat(pile.getBytes(p, exact, 0)).isEqualTo(64);
    assertThat(exact).isEqualTo(v);
    byte[] roomy = new byte[100];
    assertThat(pile.getBytes(p, roomy, 36)).isEqualTo(64);
    assertThat(Arrays.copyOfRange(roomy, 36, 100)).isEqualTo(v);

    for (int[] c : new int[][] {{63, 0}, {64, 1}, {100, 37}, {0, 0}}) {
      byte[] dst = new byte[c[0]];
      Arrays.fill(dst, (byte) 9);
      assertThatThrownBy(() -> pile.getBytes(p, dst, c[1]))
          .as("dst of %d bytes at offset %d", c[0], c[1])
          .isInstanceOf(IllegalArgumentException.class);
      byte[] untouched = new byte[c[0]];
      Arrays.fill(untouched, (byte) 9);
      assertThat(dst).isEqualTo(untouched);
    }
  }

  @Test
  void get_withWrongClass_throwsClassCastException() {
    Pile pile = open(SEGMENT_1M, 2);
    long bytes = pile.put(new byte[] {1});
    long string = pile.put("s");
    long integer = pile.put(5);
    assertThatThrownBy(() -> pile.get(bytes, String.class)).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> pile.get(string, byte[].class)).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> pile.get(integer, Long.class)).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> pile.getString(bytes)).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> pile.getString(integer)).isInstanceOf(ClassCastException.class);
    assertThat(pile.get(integer, Integer.class)).isEqualTo(5);
    assertThat(pile.get(integer, Number.class)).isEqualTo(5);
    assertThat(pile.get(string, CharSequence.class)).isEqualTo("s");
    assertThat(pile.get(bytes, Object.class)).isEqualTo(new byte[] {1});
  }

  // ====================================================================== purge and close

  @Test
  void purge_makesEveryPointerStale_andStatsZero() {
    Pile pile = open(SEGMENT_64K, 2);
    SplittableRandom random = new SplittableRandom(15);
    List<Long> pointers = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      pointers.add(pile.put(randomBytes(random, random.nextInt(2000))));
    }
    pile.update(pointers.get(0), randomBytes(random, 20_000));
    assertThat(pile.stats().segmentCount()).isGreaterThan(5);
    pile.purge();
    PileStats s = assertConsistent(pile, SEGMENT_64K);
    assertHoldsNothing(s);
    assertThat(s.segmentCount()).as("purge returns every segment").isZero();
    assertThat(s.capacityBytes()).isZero();
    for (long p : pointers) {
      assertThatThrownBy(() -> pile.get(p)).isInstanceOf(StalePointerException.class);
    }
    // the pile works after a purge, and old pointers stay stale when space is reused
    List<Long> fresh = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      fresh.add(pile.put(randomBytes(random, 100)));
    }
    for (long p : pointers) {
      assertThat(fresh).doesNotContain(p);
      assertThatThrownBy(() -> pile.get(p)).isInstanceOf(StalePointerException.class);
    }
    assertThat(pile.stats().objectCount()).isEqualTo(1000);
  }

  @Test
  void everyMethod_afterClose_throwsPileClosed() throws IOException {
    Pile pile = open(SEGMENT_1M, 2);
    long p = pile.put("value");
    pile.close();
    Map<String, ThrowingCallable> calls = everyPointerCall(pile, p);
    calls.put("put", () -> pile.put("x"));
    calls.put("put(v, extra)", () -> pile.put("x", 10));
    calls.put("get(NULL)", () -> pile.get(Pile.NULL));
    calls.put("forEach", () -> pile.forEach((q, k, s) -> {}));
    calls.put("purge", pile::purge);
    calls.put("stats", pile::stats);
    calls.put("verify", pile::verify);
    for (var call : calls.entrySet()) {
      assertThatThrownBy(call.getValue())
          .as(call.getKey() + " after close")
          .isInstanceOf(PileClosedException.class);
    }
    try {
      pile.close();
    } catch (PileClosedException allowed) {
      // closing twice may be a no-op or say that the pile is closed
    }
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void close_whileFourThreadsRead_givesThemOnlyPileClosedOrStalePointer(TestInfo info)
      throws Exception {
    long seed = PileTestSupport.seed(info.getDisplayName());
    SplittableRandom random = new SplittableRandom(seed);
    int rounds = expensiveWrites() ? 2 : 12; // 420 writes a round
    for (int round = 0; round < rounds; round++) {
      Pile pile = open(SEGMENT_1M, 2);
      long[] pointers = new long[400];
      for (int i = 0; i < pointers.length; i++) {
        pointers[i] =
            pile.put(checkedValue(i, 0, 28 + random.nextInt(i % 10 == 0 ? 60_000 : 2000), random));
      }
      ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
      AtomicBoolean closeReturned = new AtomicBoolean();
      List<Thread> readers = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        SplittableRandom mine = random.split();
        readers.add(
            Thread.ofPlatform()
                .name("reader-" + r)
                .start(() -> readUntilClosed(pile, pointers, mine, closeReturned, violations)));
      }
      Thread.sleep(5 + random.nextInt(40));
      for (int i = 0; i < 20; i++) {
        try {
          pile.delete(pointers[random.nextInt(pointers.length)]);
        } catch (StalePointerException alreadyDeleted) {
          // picked twice
        }
      }
      pile.close();
      closeReturned.set(true);
      for (Thread t : readers) {
        t.join(10_000);
        if (t.isAlive()) {
          violations.add(t.getName() + " still running 10 s after close");
        }
      }
      assertThat(violations).as("seed=%d round %d", seed, round).isEmpty();
    }
  }

  private static void readUntilClosed(
      Pile pile,
      long[] pointers,
      SplittableRandom random,
      AtomicBoolean closeReturned,
      ConcurrentLinkedQueue<String> violations) {
    while (true) {
      boolean afterClose = closeReturned.get();
      int i = random.nextInt(pointers.length);
      int method = random.nextInt(7);
      try {
        byte[] bytes =
            switch (method) {
              case 0 -> pile.getBytes(pointers[i]);
              case 1 -> (byte[]) pile.get(pointers[i]);
              case 2 -> {
                ByteBuffer dst = ByteBuffer.allocateDirect(70_000);
                pile.read(pointers[i], dst);
                byte[] out = new byte[dst.flip().remaining()];
                dst.get(out);
                yield out;
              }
              case 3 ->
                  pile.read(
                      pointers[i],
                      (kind, payload) -> {
                        // slow, byte by byte, to be inside the memory when it is released
                        byte[] out = new byte[(int) payload.byteSize()];
                        for (int j = 0; j < out.length; j++) {
                          out[j] = payload.get(ValueLayout.JAVA_BYTE, j);
                        }
                        return out;
                      });
              case 4 -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                pile.transferTo(pointers[i], Channels.newChannel(out));
                yield out.toByteArray();
              }
              case 5 -> {
                pile.sizeOf(pointers[i]);
                pile.stats();
                yield null;
              }
              default -> {
                int[] n = new int[1];
                pile.forEach((p, k, s) -> n[0]++);
                yield null;
              }
            };
        if (afterClose) {
          violations.add("method " + method + " succeeded after close returned");
          return;
        }
        if (bytes != null) {
          String problem = checkedValueProblem(bytes, i, 0);
          if (problem != null) {
            violations.add("method " + method + " read " + problem);
          }
        }
      } catch (PileClosedException closed) {
        return;
      } catch (StalePointerException deletedOrReleased) {
        if (afterClose) {
          violations.add(
              "method "
                  + method
                  + " threw StalePointerException, not PileClosedException,"
                  + " after close returned");
          return;
        }
      } catch (Throwable t) {
        violations.add("method " + method + " threw " + stackOf(t));
        return;
      }
    }
  }

  // ====================================================================== helpers

  /** Every call that takes a pointer, by name. */
  private static Map<String, ThrowingCallable> everyPointerCall(Pile pile, long p) {
    Map<String, ThrowingCallable> calls = new LinkedHashMap<>();
    calls.put("get", () -> pile.get(p));
    calls.put("get(type)", () -> pile.get(p, String.class));
    calls.put("getBytes", () -> pile.getBytes(p));
    calls.put("getBytes(dst)", () -> pile.getBytes(p, new byte[100], 0));
    calls.put("getString", () -> pile.getString(p));
    calls.put("read(ByteBuffer)", () -> pile.read(p, ByteBuffer.allocate(100)));
    calls.put(
        "transferTo", () -> pile.transferTo(p, Channels.newChannel(new ByteArrayOutputStream())));
    calls.put("read(ValueReader)", () -> pile.read(p, (k, m) -> m.byteSize()));
    calls.put("update", () -> pile.update(p, "new"));
    calls.put("delete", () -> pile.delete(p));
    calls.put("sizeOf", () -> pile.sizeOf(p));
    calls.put("kindOf", () -> pile.kindOf(p));
    return calls;
  }

  private static String stackOf(Throwable t) {
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w));
    String s = w.toString();
    return s.length() > 1500 ? s.substring(0, 1500) + "..." : s;
  }
}
