package dev.cairn.cache.lincheck;

import static dev.cairn.cache.lincheck.Operation.ABSENT;

/**
 * The sequential specification of one key of a cache table: a register that holds a value or
 * nothing ({@link Operation#ABSENT}), and what each operation returns and leaves in it.
 *
 * <p><b>Eviction.</b> With {@code evicting}, the register may also lose its value by itself, at any
 * moment: an eviction is a spontaneous remove, which the checker lets happen before any operation
 * ({@link #beforeEach}). So a read may find nothing after any write, and a put may insert where a
 * value was; but a read that returns a value must return one whose write was linearized before it
 * and not overwritten since, for an eviction never brings a value back, nor writes one.
 */
public final class RegisterModel {
  /** Marks an operation whose result the state does not allow. */
  static final long ILLEGAL = Long.MIN_VALUE;

  private final boolean evicting;

  public RegisterModel(boolean evicting) {
    this.evicting = evicting;
  }

  /** Whether the register may lose its value by itself (eviction). */
  boolean evicting() {
    return evicting;
  }

  /**
   * The state after {@code op} in {@code state}, or {@link #ILLEGAL} if {@code op} could not have
   * returned what it did there.
   */
  static long step(long state, Operation op) {
    long r = op.result();
    return switch (op.kind()) {
      case PUT -> (r == 1) == (state == ABSENT) ? op.value() : ILLEGAL;
      case GET -> r == state ? state : ILLEGAL;
      case CONTAINS -> (r == 1) == (state != ABSENT) ? state : ILLEGAL;
      case REMOVE -> (r == 1) == (state != ABSENT) ? ABSENT : ILLEGAL;
      case REMOVE_IF_EQUALS -> {
        boolean equal = state != ABSENT && state == op.expected();
        yield (r == 1) == equal ? (equal ? ABSENT : state) : ILLEGAL;
      }
      case PUT_IF_ABSENT -> {
        if (r == ABSENT) {
          yield state == ABSENT ? op.value() : ILLEGAL;
        }
        yield r == state ? state : ILLEGAL;
      }
      case REPLACE -> (r == 1) == (state != ABSENT) ? (r == 1 ? op.value() : state) : ILLEGAL;
      case REPLACE_IF_EQUALS -> {
        boolean equal = state != ABSENT && state == op.expected();
        yield (r == 1) == equal ? (equal ? op.value() : state) : ILLEGAL;
      }
      case COMPUTE_IF_ABSENT -> {
        if (r == op.value()) { // its own value (unique): it loaded and stored it
          yield state == ABSENT ? op.value() : ILLEGAL;
        }
        yield r != ABSENT && r == state ? state : ILLEGAL;
      }
    };
  }

  /**
   * The states the register may be in just before an operation, from {@code states}: the same, plus
   * {@link Operation#ABSENT} if it may be evicted. Sorted, without duplicates.
   */
  long[] beforeEach(long[] states) {
    if (!evicting || states.length == 0 || states[0] == ABSENT) {
      return states;
    }
    long[] with = new long[states.length + 1];
    with[0] = ABSENT; // values are positive, so ABSENT (0) sorts first
    System.arraycopy(states, 0, with, 1, states.length);
    return with;
  }

  /**
   * The states after {@code op} from any of {@code states}: sorted, without duplicates; empty if
   * none allows its result.
   */
  long[] step(long[] states, Operation op) {
    long[] before = beforeEach(states);
    long[] after = new long[before.length];
    int n = 0;
    for (long s : before) {
      long next = step(s, op);
      if (next != ILLEGAL) {
        after[n++] = next;
      }
    }
    java.util.Arrays.sort(after, 0, n);
    int unique = 0;
    for (int i = 0; i < n; i++) {
      if (unique == 0 || after[unique - 1] != after[i]) {
        after[unique++] = after[i];
      }
    }
    return java.util.Arrays.copyOf(after, unique);
  }
}
