package dev.cairn.pile;

import static dev.cairn.pile.BlockLayout.SEGMENT_HEADER_BYTES;

import dev.cairn.memory.NativeSegment;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** The {@link PersistenceHooks} of a persistent pile: each one a call into its store. */
final class StoreHooks implements PersistenceHooks {
  private final PersistentStore store;

  StoreHooks(PersistentStore store) {
    this.store = store;
  }

  @Override
  public boolean hasEarlierSegments() {
    return true;
  }

  @Override
  public Journal journalFor(Stripe stripe, SegmentTable table) {
    return new Journal(stripe, table, store);
  }

  @Override
  public void segmentBorn(NativeSegment segment, Stripe owner) {
    segment.trackDirtyPages(); // born in memory; the next checkpoint gives it a file
    PileFiles.writeSegmentHeader(segment);
    owner.journal.tableChanged(segment.index(), owner);
    owner.touch(segment, 0, SEGMENT_HEADER_BYTES);
  }

  @Override
  public boolean keepsRetiredSegments() {
    return true;
  }

  @Override
  public void segmentRetired(NativeSegment segment, Stripe from) {
    segment.dropPageCheck(); // wholly free: no value of its file is left to check
    from.journal.tableChanged(segment.index(), null);
    store.retire(segment);
  }

  @Override
  public List<NativeSegment> takeRetired() {
    return store.takeRetired();
  }

  @Override
  public DurabilityStats durabilityStats() {
    return store.durabilityStats();
  }

  @Override
  public String segmentName(NativeSegment segment) {
    return PileFiles.segmentFile(store.directory(), segment.index()).toString();
  }

  @Override
  public long logCommit(long txId, Stripe[] stripes, List<PileTransaction.Attached> attached) {
    return store.logging() ? Journal.appendCommit(store, txId, stripes, attached) : 0;
  }

  @Override
  public void logTransactionEnd(long txId) {
    if (store.logging()) {
      store.appendTransactionEnd(txId);
    }
  }

  @Override
  public long logPurge() {
    return store.logging() ? store.appendPurge() : 0;
  }

  @Override
  public void checkpoint() {
    store.checkpoint(false);
  }

  @Override
  public CompletableFuture<Void> prefetch(Supplier<List<Integer>> indexes, BooleanSupplier stop) {
    return store.prefetch(indexes.get(), stop);
  }

  @Override
  public void closing() {
    store.closeCleanly();
  }

  @Override
  public void closed() {
    store.closeFiles();
  }

  @Override
  public void tagsTaken(long end) {
    store.tagsTaken(end);
  }
}
