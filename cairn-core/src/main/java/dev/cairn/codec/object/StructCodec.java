package dev.cairn.codec.object;

/**
 * The body codec of one record or POJO layout; {@link StructGenerator} writes a hidden subclass per
 * class (and per older layout read into it), whose methods read and write each field in stored
 * order through method handles held as class-data constants.
 *
 * <pre>
 * StructBody --> Field^FieldCount     each in its Desc's layout, in schema order, no names
 * </pre>
 */
abstract class StructCodec {

  /** Appends {@code v}'s body to {@code out}. */
  abstract void write(Object v, Out out, int depth);

  /** Reads a body and builds the object. */
  abstract Object read(In in, int depth);
}
