package dev.cairn.pile;

/** The {@link PersistenceHooks} of a persistent pile: each one a call into its store. */
final class StoreHooks implements PersistenceHooks {
  private final PersistentStore store;

  StoreHooks(PersistentStore store) {
    this.store = store;
  }

  @Override
  public void tagsTaken(long end) {
    store.tagsTaken(end);
  }
}
