package dev.cairn.pile;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * Lincheck checks that {@link Pile#get(long)}, the lock-free read, is linearizable against
 * concurrent {@link Pile#update}, {@link Pile#delete} and {@link Pile#put} on a small volatile
 * pile: a get returns the old value or the new one, or throws {@link StalePointerException} once
 * the value is deleted; never torn bytes, never another exception.
 *
 * <p>Lincheck runs scenarios of these operations from several threads and compares each outcome
 * with the sequential {@link Model}. The pile holds three slots: two pointers put at the start and
 * one that {@link #put} fills (empty until then: a get there throws {@link
 * InvalidPointerException}). The values are strings of one repeated letter, so a torn read (part of
 * one value, part of another) matches no value; their sizes make updates in place, updates that
 * move the value behind a link, and updates that shrink it back. A put may reuse the space a delete
 * freed, so a get of the deleted pointer must see a stale tag, not the new value.
 *
 * <p>Any exception other than the two the model produces (a {@link PileCorruptionException}, an
 * {@link IndexOutOfBoundsException} from a torn size) is an outcome the model never has, and fails
 * the test. After each scenario {@link #verifyAndClose()} checks the allocator ({@link
 * Pile#verify()}) and releases the pile's memory.
 *
 * <p>Lincheck 3.7 runs on Java 25: it attaches its instrumentation agent at run time (the JVM warns
 * about the dynamic agent and about the class path appended to the boot loader's). The harness was
 * checked against a deliberately torn get (the first half of one read, the second half of another),
 * which the stress mode reported as invalid results.
 */
@Param(name = "slot", gen = IntGen.class, conf = "0:2")
@Param(name = "value", gen = IntGen.class, conf = "0:3")
public class PileLincheckTest {

  /**
   * The values: two of one size (an update between them is in place, and a torn read would mix
   * their letters), one too large for any first block (the update moves it behind a link), and a
   * short one (an update shrinks the value, back into its own block).
   */
  static final String[] VALUES = {"a".repeat(300), "b".repeat(300), "c".repeat(6000), "dd"};

  static final String OK = "ok";
  static final String STALE = "stale";
  static final String INVALID = "invalid";

  /** The slot that {@link #put} fills. */
  static final int PUT_SLOT = 2;

  private final Pile pile =
      Pile.offHeap(PileOptions.builder().segmentBytes(64 << 10).stripes(2).build());
  private final long[] pointers = {pile.put(VALUES[0]), pile.put(VALUES[3]), Pile.NULL};
  private volatile long putPointer = Pile.NULL;

  /** Lincheck makes one per scenario, JUnit one per test: each with a fresh pile. */
  public PileLincheckTest() {}

  private long pointer(int slot) {
    return slot == PUT_SLOT ? putPointer : pointers[slot];
  }

  /**
   * The name of {@code value}, {@code v0} to {@code v3}, or a description of bytes that are none of
   * the values: reports stay readable, and torn bytes still differ from every value.
   */
  static String name(String value) {
    for (int i = 0; i < VALUES.length; i++) {
      if (VALUES[i].equals(value)) {
        return "v" + i;
      }
    }
    return "torn: "
        + value.length()
        + " chars, "
        + value.chars().distinct().mapToObj(Character::toString).toList();
  }

  @Operation
  public String get(@Param(name = "slot") int slot) {
    try {
      return name((String) pile.get(pointer(slot)));
    } catch (StalePointerException deleted) {
      return STALE;
    } catch (InvalidPointerException empty) {
      return INVALID;
    }
  }

  @Operation
  public String update(@Param(name = "slot") int slot, @Param(name = "value") int value) {
    try {
      pile.update(pointer(slot), VALUES[value]);
      return OK;
    } catch (StalePointerException deleted) {
      return STALE;
    } catch (InvalidPointerException empty) {
      return INVALID;
    }
  }

  @Operation
  public String delete(@Param(name = "slot") int slot) {
    try {
      pile.delete(pointer(slot));
      return OK;
    } catch (StalePointerException deleted) {
      return STALE;
    } catch (InvalidPointerException empty) {
      return INVALID;
    }
  }

  /**
   * Puts a value and makes the put slot point to it (the value it pointed to, if any, stays in the
   * pile, unreachable). Puts do not run in parallel with each other: two would race for the slot
   * itself, which is the test's, not the pile's.
   */
  @Operation(nonParallelGroup = "put")
  public String put(@Param(name = "value") int value) {
    putPointer = pile.put(VALUES[value]);
    return OK;
  }

  @Validate
  public void verifyAndClose() {
    try {
      pile.verify();
    } finally {
      pile.close();
    }
  }

  /** The sequential specification: what each operation returns, one after another. */
  public static class Model {
    private static final String EMPTY = null;
    private static final String DELETED = "";

    private final String[] slots = {VALUES[0], VALUES[3], EMPTY};

    /** Lincheck makes one per scenario. */
    public Model() {}

    private String outcome(int slot) {
      String value = slots[slot];
      return value == null /* EMPTY */ ? INVALID : value.equals(DELETED) ? STALE : null;
    }

    public String get(int slot) {
      String outcome = outcome(slot);
      return outcome != null ? outcome : name(slots[slot]);
    }

    public String update(int slot, int value) {
      String outcome = outcome(slot);
      if (outcome != null) {
        return outcome;
      }
      slots[slot] = VALUES[value];
      return OK;
    }

    public String delete(int slot) {
      String outcome = outcome(slot);
      if (outcome != null) {
        return outcome;
      }
      slots[slot] = DELETED;
      return OK;
    }

    public String put(int value) {
      slots[PUT_SLOT] = VALUES[value];
      return OK;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Model m && Arrays.equals(slots, m.slots);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(slots);
    }
  }

  /**
   * Real threads, many short scenarios: the mode that races the pile's off-heap reads and writes
   * (about 10 s; up to 20 on a loaded machine).
   */
  @Test
  void stress() {
    new StressOptions()
        .sequentialSpecification(Model.class)
        .iterations(10)
        .invocationsPerIteration(300)
        .threads(3)
        .actorsPerThread(3)
        .actorsBefore(2)
        .actorsAfter(2)
        .check(getClass());
  }

  /**
   * Lincheck's scheduler explores interleavings, switching threads where the pile touches shared
   * Java state (its locks, atomics and fields). It does not see the pile's off-heap reads and
   * writes (through {@code MemorySegment}) as switch points, so it cannot interleave inside a
   * value's bytes: the stress mode does that. Instrumented, each scenario takes a good part of a
   * second, so this runs only with {@code -Dcairn.soak=true} (about 10 minutes):
   *
   * <pre>
   * ./mvnw -B -o -pl cairn-core test -Dtest=PileLincheckTest -Dcairn.soak=true
   * </pre>
   */
  @Test
  void modelChecking() {
    assumeTrue(Boolean.getBoolean("cairn.soak"), "minutes long: runs with -Dcairn.soak=true");
    new ModelCheckingOptions()
        .sequentialSpecification(Model.class)
        .iterations(20)
        .invocationsPerIteration(200)
        .threads(2)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(1)
        .check(getClass());
  }
}
