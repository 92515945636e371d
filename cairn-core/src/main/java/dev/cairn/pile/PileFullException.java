package dev.cairn.pile;

/**
 * The memory budget ({@link PileOptions.Builder#maxMemoryBytes(long)}) or the segment table cannot
 * take the requested allocation, or the write-ahead log has no room for the write. The pile is left
 * exactly as it was before the call. {@link TransactionTooLargeException}: the write would make its
 * transaction larger than the log can hold.
 */
public sealed class PileFullException extends PileException permits TransactionTooLargeException {
  public PileFullException(String message) {
    super(message);
  }
}
