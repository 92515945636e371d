package dev.cairn.cache;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Copies between a {@code byte[]} and off-heap memory, a word at a time up to {@link #SHORT_BYTES},
 * in one bulk copy beyond.
 *
 * <p>Why not always {@code MemorySegment.copy}'s array form: for a key or a value of a few dozen
 * bytes its checks cost more than the copy itself (KeyCodec's short keys, JMH JCacheBenchmark), and
 * its first call makes the JDK generate a class for its switch over array types, about 9 ms of a
 * restart's first hit in a cold JVM on this project's test machine (CacheCore, "Start-up"). A word
 * copy allocates nothing and needs no such class.
 *
 * <p>Thread safety: stateless.
 */
final class ShortCopies {
  /** The longest copy made a word at a time. */
  static final int SHORT_BYTES = 32;

  private static final VarHandle WORDS_OF_ARRAY =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

  private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

  private ShortCopies() {}

  /**
   * Copies {@code length} bytes of {@code source} from its start to {@code target} at {@code at}.
   */
  static void fromArray(byte[] source, MemorySegment target, long at, int length) {
    if (length > SHORT_BYTES) {
      MemorySegment.copy(source, 0, target, ValueLayout.JAVA_BYTE, at, length);
      return;
    }
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      target.set(WORD, at + i, (long) WORDS_OF_ARRAY.get(source, i));
    }
    for (; i < length; i++) {
      target.set(ValueLayout.JAVA_BYTE, at + i, source[i]);
    }
  }

  /** Copies {@code length} bytes of {@code source} at {@code at} to the start of {@code target}. */
  static void toArray(MemorySegment source, long at, byte[] target, int length) {
    if (length > SHORT_BYTES) {
      MemorySegment.copy(source, ValueLayout.JAVA_BYTE, at, target, 0, length);
      return;
    }
    int i = 0;
    for (; i + Long.BYTES <= length; i += Long.BYTES) {
      WORDS_OF_ARRAY.set(target, i, source.get(WORD, at + i));
    }
    for (; i < length; i++) {
      target[i] = source.get(ValueLayout.JAVA_BYTE, at + i);
    }
  }
}
