package dev.cairn.cache;

import dev.cairn.pile.PileOptions;
import java.time.InstantSource;
import java.util.Objects;

/**
 * How a cache is made: its byte budget, its clock, and the options of the pile under it.
 *
 * @param budgetBytes the most bytes the cache's entries and index may take in the pile; {@link
 *     Long#MAX_VALUE} for no budget (nothing is evicted). Writes evict after they write, so the
 *     cache may pass it while evicting, by at most 1/64 of it (at least 64 KiB, or an eighth of a
 *     budget under 512 KiB) and what the writes in flight add; a write that would pass that evicts
 *     first, and fails with {@link CacheFullException} if only pinned entries are left
 * @param clock the wall clock of expiry (tests pass a controllable one)
 * @param pile the pile's options: durability, segment size, codecs for values and keys. The default
 *     asks for transparent huge pages ({@link PileOptions#hugePages}): a cache reads its index and
 *     its entries in random order, and with one TLB entry per 2 MiB instead of per 4 KiB a large
 *     cache's gets miss the TLB far less (docs/BENCHMARKS.md: the 90/10 mixes of 10M entries ran
 *     about a third faster with them in five pairs of runs of six, loads about a tenth slower). Its
 *     resident memory then grows in 2 MiB steps, and pages are given back to the OS only as whole
 *     huge pages. Options built by hand ({@link PileOptions#builder}) leave them off unless asked:
 *     ask with {@code hugePages(true)}
 * @param hashedKeys whether the tables this cache creates place 8-byte keys (a {@code long}, or any
 *     key that encodes to 8 bytes) by a seeded hash, as they place every other key, rather than by
 *     runs of neighbouring keys (the default, false). Runs load sequential ids about a quarter
 *     faster, but keys chosen for it, or in progressions of a few unusual strides (four times a
 *     Fibonacci number from 233 to 610), crowd some slots: probes of up to about a thousand slots
 *     (docs/CACHE.md, "Index"). Hash the keys of a table whose keys an adversary picks. Fixed for a
 *     table when it is created: a table keeps the placement it was created with, whatever the
 *     options of a later open
 */
public record CacheOptions(
    long budgetBytes, InstantSource clock, PileOptions pile, boolean hashedKeys) {

  public CacheOptions {
    if (budgetBytes <= 0) {
      throw new IllegalArgumentException("budgetBytes must be positive: " + budgetBytes);
    }
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(pile, "pile");
  }

  /** No budget, the system clock, the pile's defaults with huge pages asked for. */
  public static CacheOptions defaults() {
    return builder().build();
  }

  /** A builder with the defaults ({@link #defaults}). */
  public static Builder builder() {
    return new Builder();
  }

  /** Builder of {@link CacheOptions}. */
  public static final class Builder {
    private long budgetBytes = Long.MAX_VALUE;
    private InstantSource clock = InstantSource.system();
    private PileOptions pile = PileOptions.builder().hugePages(true).build();
    private boolean hashedKeys;

    private Builder() {}

    /** The cache's byte budget, shared by its tables: entries and index together. */
    public Builder budgetBytes(long budgetBytes) {
      this.budgetBytes = budgetBytes;
      return this;
    }

    /** The wall clock of expiry and write times; the system's by default. */
    public Builder clock(InstantSource clock) {
      this.clock = clock;
      return this;
    }

    /**
     * The options of the pile under the cache ({@link CacheOptions#pile}); by default the pile's
     * defaults with huge pages asked for.
     */
    public Builder pile(PileOptions pile) {
      this.pile = pile;
      return this;
    }

    /** Whether new tables hash their 8-byte keys too ({@link CacheOptions#hashedKeys}). */
    public Builder hashedKeys(boolean hashedKeys) {
      this.hashedKeys = hashedKeys;
      return this;
    }

    /**
     * The options.
     *
     * @throws IllegalArgumentException if the budget is not positive
     * @throws NullPointerException if the clock or the pile's options are null
     */
    public CacheOptions build() {
      return new CacheOptions(budgetBytes, clock, pile, hashedKeys);
    }
  }
}
