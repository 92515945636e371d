/**
 * The off-heap index: key hash to the pile pointer of an entry, in buckets of slots held in chunks
 * of memory (native for a volatile cache, pile blocks for a persistent one).
 *
 * <p>Owns: the bucket and slot layout, growth, and the slot changes that are logged. Must not
 * decide what to evict: that is {@code dev.cairn.cache.policy}'s.
 */
package dev.cairn.cache.index;
