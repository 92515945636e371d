/**
 * The cache API: a {@code Cache} over a volatile or persistent pile, and its tables.
 *
 * <p>Owns: the user's view (tables, keys, options, statistics, exceptions), and what runs the
 * policy over the tables' indexes: the budget, the writers' event buffer, the readers' batches of
 * hits and the eviction lock ({@code Evictor}, {@code WriteBuffer}, {@code ReadBuffer}), and the
 * policy's view of every table's slots ({@code CacheSlots}). Must not hold the index's layout or
 * the policy's mechanism: those live in {@code dev.cairn.cache.index} and {@code
 * dev.cairn.cache.policy}.
 */
package dev.cairn.cache;
