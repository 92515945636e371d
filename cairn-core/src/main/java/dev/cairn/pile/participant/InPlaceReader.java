package dev.cairn.pile.participant;

import dev.cairn.pile.ValueKind;
import java.lang.foreign.MemorySegment;

/**
 * Reads a value where it lies, for a participant's hot reads ({@link ParticipantLog#read}): the
 * pile hands over the segment that holds the value and the payload's place in it, so that a read
 * makes no view of its own. {@link dev.cairn.pile.ValueReader} is the public form, which gets a
 * view of exactly the payload.
 *
 * <p>The read is optimistic, as every read of the pile is: a writer may change the bytes while
 * {@link #read} runs, and the pile then discards the result and calls again. So {@code read} must
 * tolerate torn bytes (a bounds-checked access that fails is retried in the same way), must not
 * keep the segment or hand it on, and should return quickly.
 *
 * <p>Thread-safety: called on the reading thread, with no lock held.
 *
 * @param <R> what the read returns
 */
@FunctionalInterface
public interface InPlaceReader<R> {

  /**
   * Reads the payload of {@code length} bytes at {@code offset} in {@code memory}.
   *
   * @param memory the read-only segment that holds the value; only {@code [offset, offset +
   *     length)} is the value's, the rest belongs to other values
   * @param offset where the payload begins in {@code memory}
   * @param length the payload's length in bytes
   * @param kind the value's kind
   * @param mark the mark the value was written with, 0-15 ({@link PayloadWriter#mark})
   * @return what the participant makes of it
   */
  R read(MemorySegment memory, long offset, int length, ValueKind kind, int mark);
}
