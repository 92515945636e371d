package dev.cairn.pile;

import static dev.cairn.pile.PileTestSupport.checkedValue;
import static dev.cairn.pile.PileTestSupport.checkedValueProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Pile#scan}: against a model, across chunk and segment edges, and beside writers. */
class PileScanTest {

  private static byte[] copy(MemorySegment bytes, long offset, int length) {
    byte[] out = new byte[length];
    MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, offset, out, 0, length);
    return out;
  }

  /** Random puts (small, chunk-sized and larger than a chunk), growing updates and deletes. */
  @Property(tries = 30)
  void scanVisitsExactlyTheLiveValues_withTheirStoredBytes(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 3000) int operations) {
    SplittableRandom random = new SplittableRandom(seed);
    PileOptions options = PileOptions.builder().segmentBytes(4L << 20).stripes(2).build();
    try (Pile pile = Pile.offHeap(options)) {
      Map<Long, byte[]> model = new HashMap<>();
      Map<Long, ValueKind> kinds = new HashMap<>();
      List<Long> live = new ArrayList<>();
      for (int i = 0; i < operations; i++) {
        int op = random.nextInt(10);
        if (op < 5 || live.isEmpty()) {
          int size =
              random.nextInt(100) == 0
                  ? PileScanner.CHUNK_BYTES + random.nextInt(4096)
                  : random.nextInt(200);
          if (random.nextBoolean()) {
            byte[] value = new byte[size];
            random.nextBytes(value);
            long p = pile.put(value);
            model.put(p, value);
            kinds.put(p, ValueKind.BYTES);
            live.add(p);
          } else {
            String value = "s" + random.nextLong() + "é".repeat(random.nextInt(20));
            long p = pile.put(value);
            model.put(p, value.getBytes(StandardCharsets.UTF_8));
            kinds.put(p, ValueKind.STRING);
            live.add(p);
          }
        } else if (op < 8) {
          long p = live.get(random.nextInt(live.size()));
          byte[] value = new byte[random.nextInt(400)]; // often larger: moves behind a link
          random.nextBytes(value);
          pile.update(p, value);
          model.put(p, value);
          kinds.put(p, ValueKind.BYTES);
        } else {
          long p = live.remove(random.nextInt(live.size()));
          pile.delete(p);
          model.remove(p);
          kinds.remove(p);
        }
      }
      Map<Long, byte[]> seen = new HashMap<>();
      pile.scan(
          (pointer, kind, bytes, offset, length) -> {
            assertThat(bytes.isReadOnly()).isTrue();
            assertThat(kind)
                .as("kind of %s", Pointers.describe(pointer))
                .isEqualTo(kinds.get(pointer));
            byte[] before = seen.put(pointer, copy(bytes, offset, length));
            assertThat(before).as("visited twice: %s", Pointers.describe(pointer)).isNull();
          });
      assertThat(seen.keySet()).isEqualTo(model.keySet());
      for (Map.Entry<Long, byte[]> e : model.entrySet()) {
        assertThat(seen.get(e.getKey())).isEqualTo(e.getValue());
      }
      pile.verify();
    }
  }

  @Test
  void aVisitorMayUseThePile_andAClosedPileRefusesToScan() {
    Pile pile = Pile.offHeap(PileOptions.builder().segmentBytes(1L << 20).stripes(2).build());
    for (int i = 0; i < 50_000; i++) {
      pile.put(("v" + i).getBytes(StandardCharsets.UTF_8));
    }
    List<Long> added = new ArrayList<>();
    pile.scan(
        (pointer, kind, bytes, offset, length) -> {
          assertThat(pile.getBytes(pointer)).isEqualTo(copy(bytes, offset, length));
          if (added.size() < 1_000) {
            added.add(pile.put(new byte[24])); // puts may land before or after the scan's position
          }
          pile.delete(pointer); // and the visited value may go at once
        });
    assertThat(pile.stats().objectCount()).isEqualTo(added.size() - countDeletedOf(pile, added));
    pile.verify();
    pile.close();
    assertThatThrownBy(() -> pile.scan((p, k, b, o, l) -> {}))
        .isInstanceOf(PileClosedException.class);
  }

  /** How many of {@code pointers} are gone: the scan may have visited, so deleted, some. */
  private static int countDeletedOf(Pile pile, List<Long> pointers) {
    int gone = 0;
    for (long p : pointers) {
      try {
        pile.sizeOf(p);
      } catch (PointerException deleted) {
        gone++;
      }
    }
    return gone;
  }

  /**
   * Writers delete, put and update (with moves) their own entries while scans run; a set of entries
   * nobody touches must be visited exactly once per scan, and nothing visited may be torn or
   * another entry's bytes.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void scansBesideWriters_visitStableValuesOnce_andNeverTornBytes() throws Exception {
    PileOptions options = PileOptions.builder().segmentBytes(1L << 20).stripes(4).build();
    try (Pile pile = Pile.offHeap(options)) {
      SplittableRandom setup = new SplittableRandom(7);
      Map<Long, Long> stable = new HashMap<>(); // pointer -> entry id
      for (long id = 0; id < 20_000; id++) {
        stable.put(pile.put(checkedValue(id, 0, 28 + setup.nextInt(60), setup)), id);
      }
      AtomicBoolean stop = new AtomicBoolean();
      ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
      Map<Long, Long> churned = new ConcurrentHashMap<>(); // pointer -> entry id, for the check
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 6; w++) {
        long base = 1_000_000L * (w + 1);
        SplittableRandom random = new SplittableRandom(w);
        writers.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      List<Long> mine = new ArrayList<>();
                      long next = base;
                      try {
                        while (!stop.get()) {
                          int op = random.nextInt(3);
                          if (op == 0 || mine.size() < 50) {
                            long id = next++;
                            long p =
                                pile.put(checkedValue(id, 0, 28 + random.nextInt(200), random));
                            churned.put(p, id);
                            mine.add(p);
                          } else if (op == 1) {
                            long p = mine.get(random.nextInt(mine.size()));
                            long id = churned.get(p);
                            pile.update(p, checkedValue(id, 0, 28 + random.nextInt(600), random));
                          } else {
                            long p = mine.remove(random.nextInt(mine.size()));
                            pile.delete(
                                p); // the model keeps its id: a reused pointer gets a new one
                          }
                        }
                      } catch (Throwable t) {
                        failures.add("writer: " + t);
                      }
                    }));
      }
      for (int round = 0; round < 5; round++) {
        Map<Long, Integer> visits = new HashMap<>();
        pile.scan(
            (pointer, kind, bytes, offset, length) -> {
              byte[] value = copy(bytes, offset, length);
              Long stableId = stable.get(pointer);
              Long id = stableId != null ? stableId : churned.get(pointer);
              String problem =
                  checkedValueProblem(
                      value,
                      id == null ? PileTestSupport.ANY_ENTRY : id,
                      PileTestSupport.ANY_ENTRY);
              if (problem != null) {
                failures.add("scan read " + Pointers.describe(pointer) + ": " + problem);
              }
              if (stableId != null) {
                visits.merge(pointer, 1, Integer::sum);
              }
            });
        assertThat(visits.keySet()).as("stable entries visited").isEqualTo(stable.keySet());
        assertThat(visits.values()).as("visits per stable entry").containsOnly(1);
      }
      stop.set(true);
      for (Thread writer : writers) {
        writer.join();
      }
      assertThat(failures).isEmpty();
      pile.verify();
    }
  }
}
