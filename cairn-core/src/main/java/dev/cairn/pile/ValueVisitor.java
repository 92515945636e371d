package dev.cairn.pile;

import java.lang.foreign.MemorySegment;

/**
 * Receives one live value during {@link Pile#scan(ValueVisitor)}: its pointer and its stored bytes,
 * {@code length} bytes of {@code bytes} from {@code offset}.
 *
 * <p>{@code bytes} is a read-only buffer the scan reuses: it holds the value only during the call,
 * so copy what must outlive it. The stored bytes are the value's raw bytes for {@link
 * ValueKind#BYTES}, its UTF-8 encoding for {@link ValueKind#STRING}, and its codec's encoding
 * behind the type id for {@link ValueKind#OBJECT} (call {@link Pile#get(long)} with the pointer to
 * decode one).
 */
@FunctionalInterface
public interface ValueVisitor {
  void visit(long pointer, ValueKind kind, MemorySegment bytes, long offset, int length);
}
