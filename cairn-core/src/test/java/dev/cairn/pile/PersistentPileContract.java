package dev.cairn.pile;

import static dev.cairn.pile.PileTestSupport.assertConsistent;
import static dev.cairn.pile.PileTestSupport.randomBytes;
import static dev.cairn.pile.PileTestSupport.sameValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link Pile} contract of a persistent pile ({@link Pile#open}) at one {@link Durability}
 * level, on the real file system under a {@link TempDir}; a concrete subclass per level.
 *
 * <p>Each pile a test opens gets a directory of its own. Beyond the contract, every pile the
 * harness closes is reopened and must hold what it held at the close (the counters, and {@link
 * Pile#verify()} passes), and {@link #reopen_keepsEveryValue_andEveryDeletedPointerStale} checks
 * values and pointers across a reopen.
 *
 * <p>Log files are sized to the test's segments (1 to 8 MiB, four of them), not the 64 or 256 MiB
 * defaults: a {@link Durability#SYNC} log is filled with zeros when it is created, and the contract
 * opens hundreds of piles. A pile with a log takes values up to an eighth of its log, so a test
 * with 8 MiB segments gets 8 MiB log files.
 */
abstract class PersistentPileContract extends PileContract {

  @TempDir Path root;

  private final IdentityHashMap<Pile, Path> directories = new IdentityHashMap<>();
  private final IdentityHashMap<Pile, PileOptions> optionsOf = new IdentityHashMap<>();
  private int created;

  private static final int LOG_FILES = 4;

  /** The durability level under test. */
  protected abstract Durability durability();

  /** The size of each log file of a pile with segments of {@code segmentBytes}. */
  private static long logFileBytes(long segmentBytes) {
    return Math.clamp(segmentBytes, 1L << 20, 8L << 20);
  }

  /** {@code options} as a persistent pile of this level opens them, in a new directory. */
  private PileOptions persistent(PileOptions options) {
    return PileOptions.builder()
        .segmentBytes(options.segmentBytes())
        .maxMemoryBytes(options.maxMemoryBytes())
        .stripes(options.stripes())
        .codecs(options.codecs())
        .hugePages(options.hugePages())
        .syncIntervalMillis(options.syncIntervalMillis())
        .durability(durability())
        .logFileBytes(logFileBytes(options.segmentBytes()))
        .logFileCount(LOG_FILES)
        .build();
  }

  @Override
  protected Pile newPile(PileOptions options) {
    Path directory = root.resolve("pile-" + created++);
    PileOptions persistent = persistent(options);
    Pile pile;
    try {
      pile = Pile.open(directory, persistent);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    directories.put(pile, directory);
    optionsOf.put(pile, persistent);
    return pile;
  }

  @Override
  protected void afterClose(Pile pile, PileStats before) {
    PileOptions existing =
        PileOptions.builder()
            .segmentBytes(optionsOf.get(pile).segmentBytes())
            .durability(durability())
            .openMode(PileOptions.OpenMode.OPEN_EXISTING)
            .build();
    try (Pile reopened = Pile.open(directories.get(pile), existing)) {
      PileStats after = assertConsistent(reopened, existing.segmentBytes());
      assertThat(after.objectCount())
          .as("objects after a reopen; before: %s", before)
          .isEqualTo(before.objectCount());
      assertThat(after.linkCount())
          .as("links after a reopen; before: %s", before)
          .isEqualTo(before.linkCount());
      assertThat(after.utilizedBytes())
          .as("utilized bytes after a reopen; before: %s", before)
          .isEqualTo(before.utilizedBytes());
      assertThat(after.allocatedBytes())
          .as("allocated bytes after a reopen; before: %s", before)
          .isEqualTo(before.allocatedBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The segment is checked before the log record: a value no segment holds is refused for the
   * segment (whose advice, larger segments, is the way out), and one that fits a segment but not a
   * log record (an eighth of the log) is refused for the log, under a durability that logs.
   */
  @Test
  void aValueLargerThanALogRecord_isRefusedForTheLog_andOneLargerThanASegmentForTheSegment() {
    Pile pile = open(PileOptions.builder().segmentBytes(8 << 20).build()); // 4 x 8 MiB of log
    int fitsTheSegment = 5 << 20; // over the log record's 4 MiB, under the segment's 8 MiB
    if (durability() == Durability.NONE) {
      long p = pile.put(new byte[fitsTheSegment]);
      assertThat(pile.getBytes(p)).hasSize(fitsTheSegment);
    } else {
      assertThatThrownBy(() -> pile.put(new byte[fitsTheSegment]))
          .isInstanceOf(ValueTooLargeException.class)
          .hasMessageContainingAll("log record", String.valueOf(fitsTheSegment), "durability NONE")
          .extracting(e -> ((ValueTooLargeException) e).limit())
          .isEqualTo(ValueTooLargeException.Limit.LOG_RECORD);
    }
    assertThatThrownBy(() -> pile.put(new byte[9 << 20]))
        .isInstanceOf(ValueTooLargeException.class)
        .hasMessageContainingAll("segment", String.valueOf(9 << 20), "larger segments")
        .hasMessageNotContaining("log record");
  }

  /**
   * A string that is not valid Unicode (an unpaired surrogate) comes back as it was, as a value and
   * as a root's name, after a reopen: not as the '?' that {@code getBytes(UTF_8)} makes of it.
   */
  @Test
  void aStringWithAnUnpairedSurrogate_comesBackAsItWas_afterAReopen() throws IOException {
    Path directory = root.resolve("surrogates");
    PileOptions options = persistent(PileOptions.builder().segmentBytes(1 << 20).build());
    String broken = "cut in half: \uD83D";
    long p;
    try (Pile pile = Pile.open(directory, options)) {
      p = pile.put(broken);
      assertThat(pile.getString(p)).isEqualTo(broken);
      pile.setRoot("root \uDE00", p);
      pile.setRoot("root ?", pile.put("another"));
      assertThat(pile.roots()).hasSize(2);
    }
    try (Pile pile = Pile.open(directory, options)) {
      assertThat(pile.getString(p)).isEqualTo(broken);
      assertThat(pile.get(p)).isEqualTo(broken);
      assertThat(pile.root("root \uDE00")).isEqualTo(p);
      assertThat(pile.getString(pile.root("root ?"))).isEqualTo("another");
    }
  }

  @Test
  void reopen_keepsEveryValue_andEveryDeletedPointerStale() throws IOException {
    Path directory = root.resolve("reopened");
    PileOptions options =
        persistent(PileOptions.builder().segmentBytes(1 << 20).stripes(2).build());
    SplittableRandom random = new SplittableRandom(17);
    Map<Long, Object> live = new LinkedHashMap<>();
    List<Long> deleted = new ArrayList<>();
    try (Pile pile = Pile.open(directory, options)) {
      for (int i = 0; i < 120; i++) {
        Object value =
            switch (i % 4) {
              case 0 -> randomBytes(random, random.nextInt(3000));
              case 1 -> PileTestSupport.multilingual(random, random.nextInt(200));
              case 2 -> random.nextLong();
              default -> (double) i;
            };
        live.put(i % 7 == 0 ? pile.put(value, 100) : pile.put(value), value);
      }
      List<Long> pointers = new ArrayList<>(live.keySet());
      for (int i = 0; i < pointers.size(); i += 5) {
        byte[] grown = randomBytes(random, 5000); // moves the value behind a link
        pile.update(pointers.get(i), grown);
        live.put(pointers.get(i), grown);
      }
      for (int i = 3; i < pointers.size(); i += 10) {
        pile.delete(pointers.get(i));
        live.remove(pointers.get(i));
        deleted.add(pointers.get(i));
      }
    }
    PileOptions existing =
        PileOptions.builder()
            .durability(durability())
            .openMode(PileOptions.OpenMode.OPEN_EXISTING)
            .build();
    try (Pile pile = Pile.open(directory, existing)) {
      assertConsistent(pile, options.segmentBytes());
      assertThat(pile.stats().objectCount()).isEqualTo(live.size());
      for (var e : live.entrySet()) {
        Object actual = pile.get(e.getKey());
        assertThat(sameValue(actual, e.getValue()))
            .as("value at 0x%s after a reopen", Long.toHexString(e.getKey()))
            .isTrue();
      }
      for (long p : deleted) {
        assertThatThrownBy(() -> pile.get(p)).isInstanceOf(StalePointerException.class);
      }
      // the reopened pile takes writes: new values, and updates and deletes by old pointers
      long first = live.keySet().iterator().next();
      pile.update(first, "after the reopen");
      assertThat(pile.getString(first)).isEqualTo("after the reopen");
      long fresh = pile.put("new");
      assertThat(live).doesNotContainKey(fresh);
      assertThat(deleted).doesNotContain(fresh);
      pile.delete(first);
      assertThatThrownBy(() -> pile.get(first)).isInstanceOf(StalePointerException.class);
      assertConsistent(pile, options.segmentBytes());
    }
  }
}
