package dev.cairn.cache;

/** What a put did. */
public enum PutResult {
  /** The key had no live entry; it has one now. */
  INSERTED,
  /** The key's entry was replaced. */
  REPLACED
}
