package dev.cairn.pile;

/** The {@link Pile} contract of a persistent pile with {@link Durability#PERIODIC}. */
class PersistentPeriodicPileContractTest extends PersistentPileContract {

  @Override
  protected Durability durability() {
    return Durability.PERIODIC;
  }
}
