package dev.cairn.pile;

/**
 * How a write is logged, passed down from the operation that makes it to the stripe that logs it
 * ({@link Stripe#unlockAndLog}): as a plain operation ({@link #PLAIN}), or as an allocation of a
 * transaction ({@link Journal#TYPE_TX_ALLOC}) that recovery undoes unless the transaction
 * committed.
 *
 * <p>Immutable. The plain context is one constant and a transaction makes its two contexts once, so
 * a write allocates none.
 *
 * @param transactionId the transaction the write allocates for, or 0 for a plain operation
 * @param allocationKind {@link Journal#TX_PUT} or {@link Journal#TX_TARGET}; 0 when plain
 */
record WriteContext(long transactionId, int allocationKind) {

  /** A write that is its own operation: logged as {@link Journal#TYPE_OP}, applied at once. */
  static final WriteContext PLAIN = new WriteContext(0, 0);

  /** The context of the puts of transaction {@code id}. */
  static WriteContext transactionPut(long id) {
    return new WriteContext(id, Journal.TX_PUT);
  }

  /** The context of the prepared update targets of transaction {@code id}. */
  static WriteContext transactionTarget(long id) {
    return new WriteContext(id, Journal.TX_TARGET);
  }

  boolean inTransaction() {
    return transactionId != 0;
  }
}
