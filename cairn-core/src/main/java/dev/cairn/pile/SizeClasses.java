package dev.cairn.pile;

/**
 * Segregated-fit size classes over block sizes in granules, in the manner of TLSF.
 *
 * <p>Blocks under {@link #EXACT_LIMIT} granules (1 KiB) get one class per size, so the small values
 * that dominate a pile are reused by an exact fit, with no split. Larger blocks share a class per
 * sixteenth of a power of two. A search rounds the request up to the next class boundary, so every
 * block of the class found fits without a list walk (good fit in O(1)).
 */
final class SizeClasses {
  static final int EXACT_LIMIT = 128;
  private static final int EXACT_LOG2 = 7;
  static final int SUB_BITS = 4;
  private static final int SUBS = 1 << SUB_BITS;
  static final int COUNT = EXACT_LIMIT + (Pointers.OFFSET_BITS - EXACT_LOG2) * SUBS;

  private SizeClasses() {}

  /** The class a free block of {@code granules} is filed under. */
  static int classOf(long granules) {
    if (granules < EXACT_LIMIT) {
      return (int) granules;
    }
    int log2 = 63 - Long.numberOfLeadingZeros(granules);
    int sub = (int) (granules >>> (log2 - SUB_BITS)) & (SUBS - 1);
    return EXACT_LIMIT + (log2 - EXACT_LOG2) * SUBS + sub;
  }

  /** The smallest block size filed under {@code sizeClass}. */
  static long classBase(int sizeClass) {
    if (sizeClass < EXACT_LIMIT) {
      return sizeClass;
    }
    int log2 = (sizeClass - EXACT_LIMIT) / SUBS + EXACT_LOG2;
    int sub = (sizeClass - EXACT_LIMIT) % SUBS;
    return (1L << log2) | ((long) sub << (log2 - SUB_BITS));
  }

  /** The first class whose every block holds {@code granules}. */
  static int searchClassOf(long granules) {
    int c = classOf(granules);
    return classBase(c) == granules ? c : c + 1;
  }
}
