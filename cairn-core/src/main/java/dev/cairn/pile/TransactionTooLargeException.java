package dev.cairn.pile;

/**
 * A write of a transaction was refused because the transaction would no longer fit the pile's
 * write-ahead log. Every record of an open transaction stays in the log until it ends (no
 * checkpoint may truncate past its first record), and the log keeps room to roll it back, so a
 * transaction can grow only to about the log's capacity less that room. The message names the log's
 * capacity and the transaction's size.
 *
 * <p>The refused write was not made. The transaction stays open with what it has: roll it back, or
 * commit it. To write more in one transaction, create the pile with a larger log ({@link
 * PileOptions.Builder#logFileBytes(long)}, {@link PileOptions.Builder#logFileCount(int)}; they
 * apply when the log is created), or split the work into several smaller transactions.
 */
public final class TransactionTooLargeException extends PileFullException {
  public TransactionTooLargeException(String message) {
    super(message);
  }
}
