package dev.cairn.pile;

/** The {@link Pile} contract of a persistent pile with {@link Durability#SYNC}. */
class PersistentSyncPileContractTest extends PersistentPileContract {

  @Override
  protected Durability durability() {
    return Durability.SYNC;
  }

  /** Every write waits for a log force: the tests that make thousands make a hundredth. */
  @Override
  protected boolean expensiveWrites() {
    return true;
  }
}
