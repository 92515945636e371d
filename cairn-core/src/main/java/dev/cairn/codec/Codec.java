package dev.cairn.codec;

import java.lang.foreign.MemorySegment;

/**
 * Turns values of one type into bytes inside a pile block, and back.
 *
 * <p>The pile asks for {@link #encodedSize(Object)} first, allocates exactly that many bytes and
 * then calls {@link #encode(Object, MemorySegment, long)} straight into the block, so no
 * intermediate array is made. A codec must be stateless or thread-safe: many threads call it at
 * once. The pile calls both on the same thread, one right after the other, so a codec may also do
 * its work in {@code encodedSize} and only copy in {@code encode}: the generated object codecs do,
 * encoding once into a per-thread buffer (see docs/FORMAT.md, "Encoding once, then one copy").
 *
 * {@snippet class=dev.cairn.pile.ApiExamplesTest region=point-codec}
 *
 * @param <T> the value type
 */
public interface Codec<T> {

  /** The exact class this codec encodes; subclasses need a codec of their own. */
  Class<T> type();

  /** The exact number of bytes {@link #encode} will write for {@code value}. */
  int encodedSize(T value);

  /** Writes exactly {@link #encodedSize(Object)} bytes of {@code value} at {@code offset}. */
  void encode(T value, MemorySegment target, long offset);

  /**
   * Reads a value from {@code length} bytes at {@code offset}. Bytes come from memory that may be
   * corrupt: a codec must check what it reads and throw {@link CorruptValueException}, never loop
   * or allocate by an unchecked length.
   */
  T decode(MemorySegment source, long offset, int length);
}
