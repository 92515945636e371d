package dev.cairn.bench.harness;

import dev.cairn.pile.Durability;
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import dev.cairn.pile.PileStats;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The pile, with default options, as a caller would open it: in native memory ({@link #offHeap}) or
 * persistent in a directory ({@link #open}). Pointers go into a {@code long[n]} made before the
 * measured load, as the caller's own index: it is 8 bytes a value of heap that is not counted
 * against the pile, and a single array that adds nothing for the GC to trace. It outlives {@link
 * #close()}, so that a persistent pile can be reopened and read back through the same pointers
 * ({@link #reopen}).
 *
 * <p>A Person is put as the object (the pile encodes it with its generated codec) and got back
 * decoded, as a caller would read it; strings and byte arrays are got by copying their bytes into
 * the thread's reused buffer, the allocation-free read.
 */
final class PileStore implements BenchStore {
  private final Pile pile;
  private final BenchValueKind kind;
  private final long[] pointers;

  /** The persistent pile's directory; null for a volatile pile. */
  private final Path directory;

  private final PileOptions options; // the persistent pile's, for a reopen; null if volatile
  private boolean closed;

  private PileStore(Pile pile, BenchValueKind kind, long[] pointers, Path directory) {
    this(pile, kind, pointers, directory, null);
  }

  private PileStore(
      Pile pile, BenchValueKind kind, long[] pointers, Path directory, PileOptions options) {
    this.options = options;
    this.pile = pile;
    this.kind = kind;
    this.pointers = pointers;
    this.directory = directory;
  }

  /** A volatile pile for {@code n} values of {@code kind}, with huge pages if asked. */
  static PileStore offHeap(BenchValueKind kind, int n, boolean hugePages) {
    return new PileStore(
        Pile.offHeap(PileOptions.builder().codecs(kind.codecs()).hugePages(hugePages).build()),
        kind,
        new long[n],
        null);
  }

  /** A persistent pile in {@code directory}, which holds no pile yet. */
  static PileStore open(Path directory, BenchConfig config) throws IOException {
    PileOptions options =
        config
            .tune(PileOptions.builder())
            .durability(config.durability())
            .codecs(config.valueKind().codecs())
            .build();
    return new PileStore(
        Pile.open(directory, options),
        config.valueKind(),
        new long[config.n()],
        directory,
        options);
  }

  /** Reopens the persistent pile {@code before} wrote and closed, with its pointers. */
  static PileStore reopen(PileStore before, Durability durability) throws IOException {
    if (before.directory == null) {
      throw new IllegalStateException("a volatile pile cannot be reopened");
    }
    return new PileStore(
        Pile.open(
            before.directory,
            before.options != null && before.options.durability() == durability
                ? before.options
                : options(durability, before.kind)),
        before.kind,
        before.pointers,
        before.directory,
        before.options);
  }

  private static PileOptions options(Durability durability, BenchValueKind kind) {
    return PileOptions.builder().durability(durability).codecs(kind.codecs()).build();
  }

  /** The persistent pile's directory, or null for a volatile pile. */
  Path directory() {
    return directory;
  }

  /** The pointer the load got for value {@code index}. */
  long pointer(int index) {
    return pointers[index];
  }

  /**
   * Reads every value with one {@link Pile#scan} and returns the sum of their {@link ValueSource}
   * checksums, the figure gets of every index add up to (sized kinds only).
   */
  long scanChecksum() {
    long[] sum = new long[1];
    pile.scan(
        (pointer, kind, bytes, offset, length) ->
            sum[0] += ValueSource.checksumOf(bytes, offset, length));
    return sum[0];
  }

  /** Starts {@link Pile#prefetch()}: the segment files are read in the background. */
  void prefetch() {
    // unwatched: a failed prefetch only leaves the page cache cold, and the reads that follow
    // meet the same files and their errors
    var unused = pile.prefetch();
  }

  @Override
  public void put(int index, Object value) {
    pointers[index] = pile.put(value);
  }

  @Override
  public long get(int index, byte[] buffer) {
    return checksumOf(pile, kind, pointers[index], buffer);
  }

  /**
   * Reads the value of {@code kind} at {@code pointer} as a caller would, and returns its {@link
   * ValueSource} checksum: a Person decoded, other kinds copied into {@code buffer}.
   */
  static long checksumOf(Pile pile, BenchValueKind kind, long pointer, byte[] buffer) {
    if (kind == BenchValueKind.PERSON) {
      return ValueSource.checksumOf(pile.get(pointer, Person.class));
    }
    // the allocation-free read: copy into the thread's reused buffer
    int length = pile.getBytes(pointer, buffer, 0);
    return ValueSource.checksumOf(buffer, length);
  }

  @Override
  public void delete(int index) {
    pile.delete(pointers[index]);
  }

  @Override
  public void reportAccounting(StoreResult result, int n) {
    PileStats stats = pile.stats();
    result.put(Metric.CAPACITY_BYTES_PER_VALUE, (double) stats.capacityBytes() / n);
    result.put(Metric.ALLOCATED_BYTES_PER_VALUE, (double) stats.allocatedBytes() / n);
    result.put(Metric.PAYLOAD_BYTES_PER_VALUE, (double) stats.utilizedBytes() / n);
  }

  /**
   * Releases the memory; a persistent pile first writes a checkpoint of everything not yet in its
   * files (with durability none, that is every value). Idempotent, so that the runner can time the
   * close and still close on every path.
   */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      pile.close();
    }
  }
}
