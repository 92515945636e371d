package dev.cairn.pile;

import static dev.cairn.pile.PileTestSupport.checkedValue;
import static dev.cairn.pile.PileTestSupport.checkedValueProblem;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page checks of a reopened pile under load: readers checking pages for the first time while
 * writers put, update and delete on the same pages and checkpoints write them, with more threads
 * than cores. No undamaged page may ever be reported damaged, and no read may return bytes that are
 * not a whole value of its pointer (issue: "no read ever returns bytes from a page whose checksum
 * does not match" must hold without false alarms).
 */
class PageCheckStressTest {

  @TempDir Path dir;

  private static final int ENTRIES = 20_000;

  @Test
  void firstReadsAfterAReopen_raceWritersAndCheckpoints_withoutFalseDamage() throws Exception {
    long seed = PileTestSupport.seed("firstReadsAfterAReopen_raceWritersAndCheckpoints");
    for (Durability durability : new Durability[] {Durability.PERIODIC, Durability.NONE}) {
      run(seed, durability, dir.resolve(durability.name()));
    }
  }

  private void run(long seed, Durability durability, Path directory) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    long[] pointers = new long[ENTRIES];
    AtomicLongArray sequences = new AtomicLongArray(ENTRIES);
    try (Pile pile = Pile.open(directory, PersistentPileTest.options(durability))) {
      for (int i = 0; i < ENTRIES; i++) {
        pointers[i] = pile.put(checkedValue(i, 0, 40 + random.nextInt(400), random));
      }
    }
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    AtomicBoolean stop = new AtomicBoolean();
    try (Pile pile = Pile.open(directory, PersistentPileTest.options(durability))) {
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) { // readers: each entry's first read checks its pages
        long readerSeed = random.nextLong();
        threads.add(
            Thread.ofPlatform()
                .start(
                    () ->
                        guarded(
                            failures,
                            () -> {
                              SplittableRandom r = new SplittableRandom(readerSeed);
                              while (!stop.get()) {
                                int i = r.nextInt(ENTRIES);
                                byte[] bytes =
                                    pile.getBytes(pointers[i]); // entries are never deleted here
                                String problem = checkedValueProblem(bytes, i, -1);
                                if (problem != null) {
                                  throw new AssertionError("entry " + i + ": " + problem);
                                }
                              }
                            })));
      }
      for (int t = 0; t < 2; t++) { // writers: updates in place and moves, puts and deletes
        int writer = t;
        long writerSeed = random.nextLong();
        threads.add(
            Thread.ofPlatform()
                .start(
                    () ->
                        guarded(
                            failures,
                            () -> {
                              SplittableRandom r = new SplittableRandom(writerSeed);
                              List<Long> extra = new ArrayList<>();
                              while (!stop.get()) {
                                int i =
                                    r.nextInt(ENTRIES / 2) * 2
                                        + writer; // each writer owns half the entries
                                long sequence = sequences.incrementAndGet(i);
                                pile.update(
                                    pointers[i], checkedValue(i, sequence, 40 + r.nextInt(600), r));
                                if (r.nextInt(4) == 0) {
                                  extra.add(
                                      pile.put(checkedValue(ENTRIES + r.nextInt(1000), 0, 64, r)));
                                }
                                if (extra.size() > 200) {
                                  pile.delete(extra.remove(r.nextInt(extra.size())));
                                }
                              }
                            })));
      }
      threads.add(
          Thread.ofPlatform()
              .start(
                  () ->
                      guarded(
                          failures,
                          () -> {
                            while (!stop.get()) {
                              pile.checkpoint();
                              Thread.sleep(20);
                            }
                          })));
      Thread.sleep(TimeUnit.SECONDS.toMillis(Long.getLong("cairn.stress.seconds", 3)));
      stop.set(true);
      for (Thread thread : threads) {
        thread.join();
      }
      assertThat(failures).as("seed %d, %s", seed, durability).isEmpty();
      pile.verify(); // every page, checked or not yet, matches
      for (int i = 0; i < ENTRIES; i++) {
        assertThat(checkedValueProblem(pile.getBytes(pointers[i]), i, sequences.get(i)))
            .as("entry %d", i)
            .isNull();
      }
    }
    try (Pile pile = Pile.open(directory, PersistentPileTest.options(durability))) {
      pile.verify();
      for (int i = 0; i < ENTRIES; i++) {
        assertThat(checkedValueProblem(pile.getBytes(pointers[i]), i, sequences.get(i)))
            .as("entry %d after a reopen", i)
            .isNull();
      }
    }
  }

  private interface Body {
    void run() throws Exception;
  }

  private static void guarded(ConcurrentLinkedQueue<Throwable> failures, Body body) {
    try {
      body.run();
    } catch (Throwable t) {
      failures.add(t);
    }
  }
}
