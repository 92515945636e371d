package dev.cairn.codec.object;

/**
 * Writes, reads and skips one declared type ({@link Desc}) at one position in a value.
 *
 * <p>Generated struct codecs hold their field codecs as class-data constants, so the JIT sees the
 * receiver's exact class and inlines these calls. {@code depth} counts the user objects between the
 * top-level value and this one; {@link Refs} bounds it.
 *
 * <p>A codec built to read an older layout into a current type (schema evolution) only reads and
 * skips; its {@link #write} throws.
 */
abstract class ValueCodec {

  /** Appends {@code v} to {@code out}. */
  abstract void write(Object v, Out out, int depth);

  /** Reads one value; the result is assignable to the Java type this codec was built for. */
  abstract Object read(In in, int depth);

  /** Moves past one value without building it. */
  void skip(In in, int depth) {
    read(in, depth);
  }

  /** A codec that reads an old layout and cannot write. */
  abstract static class ReadOnly extends ValueCodec {
    @Override
    final void write(Object v, Out out, int depth) {
      throw new IllegalStateException("a read-only codec of an older schema cannot write");
    }
  }
}
