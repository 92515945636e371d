package dev.cairn.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import dev.cairn.pile.PileTestSupport;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The seed's Person through a pile from many threads at once: first use of the type (its id and
 * generated codec) from all threads together, puts and gets of each thread's own persons, and
 * readers racing writers that update shared pointers with persons of other sizes (so values move
 * behind links). Every person is built so that its fields agree with each other: a torn or corrupt
 * read would show as a mismatch, and must never happen.
 */
class PersonConcurrencyTest {

  private static final int THREADS = 8;
  private static final int SHARED = 64;

  /** A person whose every field is derived from {@code id} and {@code variant}. */
  static Person person(long id, int variant) {
    String name = "n" + id + "x".repeat(variant % 40);
    return new Person(
        name,
        "s" + id,
        name + "@example.com",
        (int) (id % 100),
        id * 0.5,
        id,
        LocalDate.ofEpochDay(id % 40_000 - 20_000));
  }

  static void assertCoherent(Object value) {
    assertThat(value).isInstanceOf(Person.class);
    Person p = (Person) value;
    long id = p.id();
    assertThat(p.surname()).isEqualTo("s" + id);
    assertThat(p.name()).startsWith("n" + id);
    assertThat(p.email()).isEqualTo(p.name() + "@example.com");
    assertThat(p.age()).isEqualTo((int) (id % 100));
    assertThat(p.salary()).isEqualTo(id * 0.5);
    assertThat(p.birthDate()).isEqualTo(LocalDate.ofEpochDay(id % 40_000 - 20_000));
  }

  @Test
  void persons_putAndGet_fromManyThreads_stayIntact() throws Exception {
    long seed = PileTestSupport.seed("PersonConcurrencyTest.persons");
    CodecRegistry codecs = CodecRegistry.builder().allow(Person.class).build();
    long segmentBytes = 1L << 20;
    try (Pile pile =
        Pile.offHeap(
            PileOptions.builder().codecs(codecs).segmentBytes(segmentBytes).stripes(4).build())) {
      AtomicLongArray shared = new AtomicLongArray(SHARED);
      for (int i = 0; i < SHARED; i++) {
        shared.set(i, pile.put(person(i, 0)));
      }
      AtomicReference<Throwable> failure = new AtomicReference<>();
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int me = t;
        threads.add(
            Thread.ofPlatform()
                .name("person-" + t)
                .start(
                    () -> {
                      SplittableRandom random = new SplittableRandom(seed + me);
                      List<Long> mine = new ArrayList<>();
                      List<Person> expected = new ArrayList<>();
                      try {
                        start.await();
                        for (int i = 0; i < 15_000; i++) {
                          long id = 1_000_000L * (me + 1) + i;
                          int op = random.nextInt(10);
                          if (op < 4 || mine.isEmpty()) { // put, and read back at once
                            Person p = person(id, random.nextInt(60));
                            long pointer = pile.put(p);
                            mine.add(pointer);
                            expected.add(p);
                            assertThat(pile.get(pointer, Person.class)).isEqualTo(p);
                          } else if (op < 6) { // read one of mine
                            int k = random.nextInt(mine.size());
                            assertThat(pile.get(mine.get(k))).isEqualTo(expected.get(k));
                          } else if (op < 8) { // read a shared one while others update it
                            assertCoherent(pile.get(shared.get(random.nextInt(SHARED))));
                          } else if (op < 9) { // update a shared one, to a size that may move it
                            pile.update(
                                shared.get(random.nextInt(SHARED)), person(id, random.nextInt(60)));
                          } else { // delete one of mine
                            int k = random.nextInt(mine.size());
                            pile.delete(mine.remove(k));
                            expected.remove(k);
                          }
                        }
                        for (int k = 0; k < mine.size(); k++) {
                          assertThat(pile.get(mine.get(k))).isEqualTo(expected.get(k));
                        }
                      } catch (Throwable e) {
                        failure.compareAndSet(
                            null, new AssertionError("thread " + me + ", seed " + seed, e));
                      }
                    }));
      }
      start.countDown();
      for (Thread t : threads) {
        t.join();
      }
      if (failure.get() != null) {
        throw new AssertionError(failure.get());
      }
      for (int i = 0; i < SHARED; i++) {
        assertCoherent(pile.get(shared.get(i)));
      }
      assertThat(codecs.schemas()).as("one schema, however many threads used it first").hasSize(1);
      PileTestSupport.assertConsistent(pile, segmentBytes);
    }
  }
}
