package dev.cairn.pile;

/** How a stored value is encoded, and therefore which Java type {@link Pile#get(long)} returns. */
public enum ValueKind {
  /** A {@code byte[]}, stored raw. */
  BYTES,
  /** A {@code String}, stored as UTF-8. */
  STRING,
  /** Any other object, stored through a registered {@link dev.cairn.codec.Codec}. */
  OBJECT
}
