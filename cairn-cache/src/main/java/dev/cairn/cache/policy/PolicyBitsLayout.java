package dev.cairn.cache.policy;

/**
 * The 8 policy bits of an index slot's meta word, as {@link TinyLfuClock} uses them.
 *
 * <pre>
 *    7   6   5   4   3   2   1   0
 *  +---+---+---+---+---+---+---+---+
 *  |   spare   |  age  | R |  seg  |
 *  +---+---+---+---+---+---+---+---+
 *   seg    the entry's segment: 0 window, 1 probation, 2 protected, 3 leaving: not counted
 *          against the budget (stored and not counted yet, or chosen as a victim)
 *   R      referenced: set by a hit (one compare-and-set, no lock); cleared by the policy when
 *          it acts on it (the window's second chance, a promotion, a protected entry's refresh)
 *   age    protected entries, 0..AGE_MAX: turns of the hand left before the entry may be
 *          demoted to probation; a reference resets it to AGE_MAX. Probation entries: the
 *          passes of the hand left before the entry may be a victim (its grace,
 *          TinyLfuClock.Options#probationGrace; 0 for entries demoted or counted again)
 *   spare  not the policy's: it never reads them (SlotView#bits gives them as 0) and a
 *          SlotView keeps them across its compare-and-set. The cache keeps its pinned flag and
 *          what to do with an uncounted entry there (CacheSlots).
 * </pre>
 *
 * A new entry's bits are LEAVING (not counted) until {@link TinyLfuClock#onInsert} sets them to
 * window, not referenced: all zero.
 */
public final class PolicyBitsLayout {
  public static final int SEGMENT_SHIFT = 0;
  public static final int SEGMENT_LENGTH = 2;
  public static final int SEGMENT_MASK = ((1 << SEGMENT_LENGTH) - 1) << SEGMENT_SHIFT;
  public static final int REFERENCED_SHIFT = SEGMENT_SHIFT + SEGMENT_LENGTH;
  public static final int REFERENCED_LENGTH = 1;
  public static final int REFERENCED = 1 << REFERENCED_SHIFT;
  public static final int AGE_SHIFT = REFERENCED_SHIFT + REFERENCED_LENGTH;
  public static final int AGE_LENGTH = 2;
  public static final int AGE_MASK = ((1 << AGE_LENGTH) - 1) << AGE_SHIFT;
  public static final int SPARE_SHIFT = AGE_SHIFT + AGE_LENGTH;
  public static final int SPARE_LENGTH = Byte.SIZE - SPARE_SHIFT;

  /** The policy's own bits: segment, referenced and age. */
  public static final int POLICY_MASK = (1 << SPARE_SHIFT) - 1;

  public static final int WINDOW = 0;
  public static final int PROBATION = 1;
  public static final int PROTECTED = 2;
  public static final int LEAVING = 3;

  /** The largest age. */
  public static final int AGE_MAX = (1 << AGE_LENGTH) - 1;

  private PolicyBitsLayout() {}

  /** The segment of {@code bits}. */
  public static int segment(int bits) {
    return (bits & SEGMENT_MASK) >>> SEGMENT_SHIFT;
  }

  /** Whether {@code bits} have the referenced bit set. */
  public static boolean referenced(int bits) {
    return (bits & REFERENCED) != 0;
  }

  /** The age of {@code bits}. */
  public static int age(int bits) {
    return (bits & AGE_MASK) >>> AGE_SHIFT;
  }

  /** The bits of an unreferenced entry of {@code segment} and {@code age}. */
  public static int bits(int segment, int age) {
    return (segment << SEGMENT_SHIFT) | (age << AGE_SHIFT);
  }

  /** {@code bits} with the age replaced. */
  public static int withAge(int bits, int age) {
    return (bits & ~AGE_MASK) | (age << AGE_SHIFT);
  }
}
