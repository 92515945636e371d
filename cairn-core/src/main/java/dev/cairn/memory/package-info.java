/**
 * Raw memory: native segments, their arenas and their lifetime.
 *
 * <p>Owns: allocating a segment from the OS, releasing it, and the per-segment write sequence
 * that lets readers validate an optimistic read. Must not know about blocks, pointers or values:
 * those belong to {@code dev.cairn.pile}.
 */
package dev.cairn.memory;
