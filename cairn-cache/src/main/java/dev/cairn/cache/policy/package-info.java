/**
 * The eviction policy: which entry leaves when the budget is exceeded, and whether a new one is
 * admitted.
 *
 * <p>{@link dev.cairn.cache.policy.TinyLfuClock} is W-TinyLFU over an index's slots: 8 policy bits
 * per slot ({@link dev.cairn.cache.policy.PolicyBitsLayout}), a hand sweeping the slots in table
 * order, a ring of the window's hashes, and a {@link dev.cairn.cache.policy.FrequencySketch} of 1
 * byte per entry shared by the cache's tables. The index shows its slots through {@link
 * dev.cairn.cache.policy.SlotView}. {@code docs/CACHE-POLICY.md} says why this policy, with the hit
 * ratios that decided it.
 *
 * <p>Owns: the frequency sketch and the meaning of the policy bits of a slot; the counts every read
 * bumps are kept per thread ({@link dev.cairn.cache.policy.StripedCounts}). Must not touch the
 * pile: it sees entries only as slots of the index. Allocates nothing in steady state.
 */
package dev.cairn.cache.policy;
