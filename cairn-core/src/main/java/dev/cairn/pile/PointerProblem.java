package dev.cairn.pile;

import java.util.Locale;

/**
 * Why a pointer names no live value of its pile, and which exception says so: a stale pointer was
 * one of this pile's and its value is gone ({@link StalePointerException}); an invalid one never
 * named a value here ({@link InvalidPointerException}). The message of each is the exception's,
 * with the values its constant's javadoc names filled in.
 */
enum PointerProblem {

  /** The block is free: the value was deleted. */
  DELETED(true, "value was deleted"),

  /** The block's tag is not the pointer's: the value was deleted and its memory reused. */
  TAG_MISMATCH(true, "tag mismatch"),

  /** The header is a link target's, or has reserved bits set: no block starts there. */
  NOT_A_BLOCK_START(false, "not a block start"),

  /** The header's size runs past its segment: no block starts there. */
  SIZE_OUT_OF_RANGE(false, "not a block start (size out of range)"),

  /** The offset lies in the segment's header, or too near its end for a block. */
  OFFSET_OUT_OF_RANGE(false, "offset outside the segment's blocks"),

  /** Tag 0, which no pointer has. */
  TAG_ZERO(false, "not a pointer: no pointer has tag 0"),

  /** A tag the clock never reached; one value: the tag. */
  TAG_NEVER_HANDED_OUT(
      false,
      "not a pointer of this pile: it never handed out tag %d"
          + " (a pointer of another pile, or a number that is no pointer)"),

  /** A segment index the table never used; two values: the index and the table's bound. */
  SEGMENT_NEVER_USED(false, "not a pointer of this pile: it never had a segment %d (%d so far)"),

  /** An empty slot the table used before; one value: the index. */
  SEGMENT_RELEASED(true, "no segment %d now: its values were deleted and the segment released"),

  /** The segment was released while a read was in it. */
  RELEASED_DURING_READ(true, "segment was released: the value was deleted"),

  /** A transaction updates a pointer it deleted. */
  DELETED_EARLIER_IN_TRANSACTION(true, "deleted earlier in this transaction"),

  /** A transaction reads a pointer it deleted. */
  DELETED_IN_TRANSACTION(true, "deleted in this transaction");

  private final boolean stale;
  private final String message;

  PointerProblem(boolean stale, String message) {
    this.stale = stale;
    this.message = message;
  }

  /** Whether the pointer was one of the pile's: {@link StalePointerException}. */
  boolean stale() {
    return stale;
  }

  /**
   * The exception for {@code pointer}: {@link StalePointerException} or {@link
   * InvalidPointerException}, with the values the constant names, in order.
   */
  PointerException exception(long pointer, long... values) {
    String text = message;
    if (values.length > 0) {
      Object[] args = new Object[values.length];
      for (int i = 0; i < values.length; i++) {
        args[i] = values[i];
      }
      text = String.format(Locale.ROOT, message, args);
    }
    return stale
        ? new StalePointerException(pointer, text)
        : new InvalidPointerException(pointer, text);
  }
}
