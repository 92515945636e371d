package dev.cairn.pile.participant;

import java.lang.foreign.MemorySegment;

/**
 * The bytes of a value a participant composes itself ({@link ParticipantLog#put(PayloadWriter, int,
 * Attachment)}, {@link ParticipantLog#update}), written straight into the pile's block: no
 * intermediate array. The value is of kind {@link dev.cairn.pile.ValueKind#BYTES}: {@link
 * dev.cairn.pile.Pile#getBytes} and {@link dev.cairn.pile.Pile#read(long,
 * dev.cairn.pile.ValueReader)} return exactly the bytes written.
 *
 * <p>A cache entry, say, is a header, the key's bytes and the value encoded with the pile's codecs
 * ({@link ParticipantLog#codecs()}):
 *
 * <pre>{@code
 * Codec<V> codec = codecs.codecOf(typeId);
 * int valueBytes = codec.encodedSize(value);
 * PayloadWriter entry = new PayloadWriter() {
 *   public int sizeBytes() { return HEADER + key.length + valueBytes; }
 *   public void writeTo(MemorySegment target, long offset) {
 *     target.set(JAVA_INT_UNALIGNED, offset, key.length);
 *     MemorySegment.copy(MemorySegment.ofArray(key), 0, target, offset + HEADER, key.length);
 *     codec.encode(value, target, offset + HEADER + key.length);
 *   }
 * };
 * }</pre>
 *
 * <p>Thread-safety: the pile calls {@link #sizeBytes} once, then {@link #writeTo} once, on the
 * writing thread, {@code writeTo} just before or under the lock of the stripe the value goes to
 * (before it for a payload that is staged, see {@link #writeTo}): it must not call the pile, and
 * should not block.
 */
public interface PayloadWriter {

  /** The payload's length in bytes, at least 0: what {@link #writeTo} writes. */
  int sizeBytes();

  /**
   * Writes the payload, exactly {@link #sizeBytes} bytes, at {@code [offset, offset + sizeBytes())}
   * of {@code target}: every byte, since the memory holds whatever it held before. The pile passes
   * {@code offset} 0 and either a staging buffer of its own, at least {@code sizeBytes()} long,
   * which it copies the first {@code sizeBytes()} bytes of into the block once this returns (for a
   * payload of up to 4 KiB, so that a write allocates nothing), or a view of the block bounded to
   * the payload. Either way a byte written past {@code sizeBytes()} never reaches a neighbour: it
   * stays in the staging buffer, or the write throws {@link IndexOutOfBoundsException}. So a writer
   * must not read {@code target} (it is not the block's old bytes) nor rely on its size. The offset
   * is there so that the same writer can compose into memory of its own, and codecs, which write at
   * an offset, can be called with it directly. {@code target} is valid only during the call.
   *
   * @throws RuntimeException anything, to abandon the write: see the method that called it
   */
  void writeTo(MemorySegment target, long offset);

  /**
   * The mark the pile keeps on the value's block, 0 to 15 (the mark bits of its header, see
   * FORMAT.md), for a participant whose payloads come in forms that their bytes alone cannot tell
   * apart: {@link InPlaceReader#read} hands the mark back with the payload, and it stays with the
   * payload through an {@link ParticipantLog#update} that moves it, a checkpoint, a reopen and a
   * crash recovery. The pile itself never reads it. Asked once per write, after {@link #sizeBytes};
   * a mark outside 0-15 fails the write with {@link IllegalArgumentException}. 0 by default.
   */
  default int mark() {
    return 0;
  }
}
