package dev.cairn.bench.harness;

import dev.cairn.pile.Durability;
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A persistent pile with {@link Durability#SYNC}, default options otherwise: each {@code put} is a
 * single-put transaction that returns once its log record is forced, and concurrent puts share
 * forces (group commit). The pointers are dropped: keeping them is the caller's business, and costs
 * the same with any store.
 */
final class PileCommitStore implements CommitStore {
  private final Pile pile;

  private PileCommitStore(Pile pile) {
    this.pile = pile;
  }

  static PileCommitStore open(Path directory) throws IOException {
    return new PileCommitStore(
        Pile.open(directory, PileOptions.builder().durability(Durability.SYNC).build()));
  }

  @Override
  public void commit(int thread, long sequence, byte[] value) {
    pile.put(value);
  }

  @Override
  public long valueCount() {
    return pile.stats().objectCount();
  }

  @Override
  public void close() {
    pile.close();
  }
}
