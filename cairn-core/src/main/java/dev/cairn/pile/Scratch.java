package dev.cairn.pile;

import dev.cairn.codec.Codec;
import dev.cairn.codec.CodecRegistry;
import dev.cairn.codec.Utf8;
import dev.cairn.memory.ThreadStatePadding;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Per-thread encode and decode buffers, so that puts, updates and string gets allocate nothing
 * extra. One per thread ({@link #forThread}); used by one call at a time, which takes what it needs
 * before it calls out to a codec.
 */
final class Scratch extends ThreadStatePadding {
  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);
  private static final int KEEP_BYTES = 64 * 1024;
  private static final int ONE_PASS_CHARS = 4096;

  /** The largest payload a {@link dev.cairn.pile.participant.PayloadWriter} composes in staging. */
  static final int STAGING_BYTES = 4096;

  byte[] bytes = new byte[256];

  // a string's chars on their way into bytes (Utf8.encode with chars)
  private char[] chars = new char[64];

  /** The thread's probe of the stripes: its low bits name its home stripe (StripeAllocator). */
  int stripeProbe = StripeAllocator.newProbe();

  // the value encoded by BlockWriter.encodeForRewrite
  int kind;
  byte[] source;
  int length;

  // see staging(); null until the thread's first payload write
  private MemorySegment staging;

  private Scratch() {}

  /** The calling thread's scratch. */
  static Scratch forThread() {
    return SCRATCH.get();
  }

  /**
   * Encodes into {@link #bytes} (grown if needed) and returns the length. A string of up to {@link
   * #ONE_PASS_CHARS} chars is encoded in one pass into room for its longest encoding; a longer one
   * a piece of up to that many chars at a time, the buffer grown as the bytes need, so that it is
   * not three times the string's length (a measuring pass first, of {@code charAt}, cost about 2 ns
   * a char of an ASCII string; the JDK's encoder is as fast on ASCII but twice as slow on Cyrillic
   * text, and makes an array of its own: docs/probes/Utf8ScratchCost.java).
   */
  int encode(String string) {
    int n = string.length();
    if (n <= ONE_PASS_CHARS) {
      if (chars.length < n) {
        chars = new char[Math.max(n, Math.min(ONE_PASS_CHARS, 2 * chars.length))];
      }
      return Utf8.encode(string, ensure((int) Utf8.maxEncodedLength(n)), chars);
    }
    if (chars.length < ONE_PASS_CHARS) {
      chars = new char[ONE_PASS_CHARS];
    }
    int length = 0;
    for (int from = 0; from < n; ) {
      int to = Utf8.pieceEnd(string, from, ONE_PASS_CHARS); // a surrogate pair stays whole
      length =
          Utf8.encode(
              string,
              from,
              to,
              chars,
              grow(length + (int) Utf8.maxEncodedLength(to - from), length),
              length);
      from = to;
    }
    return length;
  }

  <T> int encodeObject(T value, CodecRegistry codecs) {
    @SuppressWarnings("unchecked")
    Class<T> type = (Class<T>) value.getClass();
    int typeId = codecs.typeIdOf(type);
    Codec<T> codec = codecs.codecOf(typeId);
    int idBytes = TypeIds.length(typeId);
    int length = idBytes + codec.encodedSize(value);
    ensure(length);
    MemorySegment view = MemorySegment.ofArray(bytes).asSlice(0, length);
    TypeIds.write(view, typeId);
    codec.encode(value, view, idBytes);
    return length;
  }

  /**
   * Native memory of {@link #STAGING_BYTES} that a payload writer composes a payload of up to that
   * size in, which BlockWriter then copies into the block: one buffer per thread instead of one
   * bounded view of the block per write (a 40-byte object on every cache put). Made at the thread's
   * first payload write, so that threads that only put and get plain values never pay for it (a
   * thread that writes cache entries holds a record buffer of the same size already); freed with
   * the thread's scratch.
   */
  MemorySegment staging() {
    if (staging == null) {
      staging = Arena.ofAuto().allocate(STAGING_BYTES, Long.BYTES);
    }
    return staging;
  }

  String decodeString(MemorySegment memory, long at, int length) {
    byte[] buffer = ensure(length);
    MemorySegment.copy(memory, ValueLayout.JAVA_BYTE, at, buffer, 0, length);
    return Utf8.decode(buffer, 0, length);
  }

  /** Makes {@link #bytes} hold at least {@code length} bytes, keeping its first {@code keep}. */
  private byte[] grow(int length, int keep) {
    if (bytes.length < length) {
      byte[] larger = new byte[Math.max(length, bytes.length + (bytes.length >> 1))];
      System.arraycopy(bytes, 0, larger, 0, keep);
      bytes = larger;
    }
    return bytes;
  }

  /**
   * Makes {@link #bytes} hold at least {@code length} bytes. An array past {@link #KEEP_BYTES} is
   * dropped at the next small request, so one huge value does not pin memory per thread.
   */
  private byte[] ensure(int length) {
    if (bytes.length < length) {
      bytes = new byte[Math.max(length, Math.min(KEEP_BYTES, bytes.length * 2))];
    } else if (bytes.length > KEEP_BYTES && length <= KEEP_BYTES) {
      bytes = new byte[KEEP_BYTES];
    }
    return bytes;
  }
}
