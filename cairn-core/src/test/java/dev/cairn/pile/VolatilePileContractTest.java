package dev.cairn.pile;

/** The {@link Pile} contract of the volatile pile, {@link Pile#offHeap}. */
class VolatilePileContractTest extends PileContract {

  @Override
  protected Pile newPile(PileOptions options) {
    return Pile.offHeap(options);
  }
}
