package dev.cairn.pile;

/** The {@link Pile} contract of a persistent pile with {@link Durability#NONE}. */
class PersistentNonePileContractTest extends PersistentPileContract {

  @Override
  protected Durability durability() {
    return Durability.NONE;
  }
}
