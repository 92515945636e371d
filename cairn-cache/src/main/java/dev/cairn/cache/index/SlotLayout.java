package dev.cairn.cache.index;

/**
 * The layout of one index slot: 16 bytes, two little-endian words, in a shard's region.
 *
 * <pre>
 * Slot --> Pointer:u64, Meta:u64
 *
 *  0                                                              8
 * +---------------------------------------------------------------+
 * |                  pointer (0 = empty slot)                     |
 * +--------------------------------+-----------------------+-------+
 * |        hash (32)               |    expiry (24)        | policy|
 * +--------------------------------+-----------------------+-------+
 *  63                            32 31                    8 7     0   (meta word)
 * </pre>
 *
 * <ul>
 *   <li>pointer: the pile pointer of the entry (never 0 for a value, so 0 marks an empty slot).
 *   <li>hash: bits 24..55 of the key's 64-bit hash ({@link #hash32}); its low bits place the slot
 *       in its shard, so a resize needs no key.
 *   <li>expiry: the entry's expiry in seconds after the table's epoch, rounded up; 0 for none,
 *       {@link #EXPIRY_FAR} for one past the 24-bit range (then only the entry's header knows). A
 *       hint for the eviction hand and a read's fast reject; the entry header is exact.
 *   <li>policy: the eviction policy's bits ({@code dev.cairn.cache.policy}).
 * </ul>
 */
public final class SlotLayout {
  public static final int POINTER_OFFSET = 0;
  public static final int POINTER_LENGTH = Long.BYTES;
  public static final int META_OFFSET = POINTER_OFFSET + POINTER_LENGTH;
  public static final int META_LENGTH = Long.BYTES;
  public static final int SLOT_BYTES = META_OFFSET + META_LENGTH;

  public static final int POLICY_BITS = 8;
  public static final int EXPIRY_BITS = 24;
  public static final int EXPIRY_SHIFT = POLICY_BITS;
  public static final int HASH_SHIFT = EXPIRY_SHIFT + EXPIRY_BITS;

  public static final long POLICY_MASK = (1L << POLICY_BITS) - 1;
  public static final long EXPIRY_MASK = (1L << EXPIRY_BITS) - 1;

  /** The expiry of an entry that expires after the 24-bit range of seconds. */
  public static final int EXPIRY_FAR = (int) EXPIRY_MASK;

  /** Where a shard's bits of the key hash start ({@link #hash32}); below are the shard's. */
  static final int HASH32_SHIFT = 24;

  private SlotLayout() {}

  /** The 32 hash bits a slot keeps: bits 24..55 of the key's hash (the top 8 pick the shard). */
  public static int hash32(long hash) {
    return (int) (hash >>> HASH32_SHIFT);
  }

  public static long meta(int hash32, int expiry, int policy) {
    return ((long) hash32 << HASH_SHIFT)
        | ((expiry & EXPIRY_MASK) << EXPIRY_SHIFT)
        | (policy & POLICY_MASK);
  }

  public static int hash32OfMeta(long meta) {
    return (int) (meta >>> HASH_SHIFT);
  }

  public static int expiryOfMeta(long meta) {
    return (int) ((meta >>> EXPIRY_SHIFT) & EXPIRY_MASK);
  }

  public static int policyOfMeta(long meta) {
    return (int) (meta & POLICY_MASK);
  }

  public static long withPolicy(long meta, int policy) {
    return (meta & ~POLICY_MASK) | (policy & POLICY_MASK);
  }

  public static long withExpiry(long meta, int expiry) {
    return (meta & ~(EXPIRY_MASK << EXPIRY_SHIFT)) | ((expiry & EXPIRY_MASK) << EXPIRY_SHIFT);
  }
}
