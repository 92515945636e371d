/**
 * The YCSB binding of the Cairn cache: {@link dev.cairn.ycsb.CairnYcsbClient}, which YCSB's client
 * runs the core workloads through ({@code -db dev.cairn.ycsb.CairnYcsbClient}).
 *
 * <p>Owns: the mapping of YCSB's records and operations onto cache tables, and the one cache a
 * JVM's clients share. Must not hold anything of the cache's own: it uses only the public API of
 * {@code dev.cairn.cache}.
 */
package dev.cairn.ycsb;
