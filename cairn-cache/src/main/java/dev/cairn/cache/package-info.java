/**
 * The cache API: a {@code Cache} over a volatile or persistent pile, and its tables.
 *
 * <p>Owns: the user's view (tables, keys, options, statistics, exceptions). Must not hold the
 * index's layout or the policy's mechanism: those live in {@code dev.cairn.cache.index} and
 * {@code dev.cairn.cache.policy}.
 */
package dev.cairn.cache;
