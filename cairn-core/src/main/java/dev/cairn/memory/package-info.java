/**
 * Raw memory: native segments, their arenas and their lifetime.
 *
 * <p>Owns: allocating a segment from the OS (or adopting a file mapping), releasing it, the
 * per-segment write sequence that lets readers validate an optimistic read, and the record of which
 * pages were written since a checkpoint last copied them; and binding the few libc functions Cairn
 * calls through FFM ({@link dev.cairn.memory.NativeCalls}), which the file layer ({@code
 * dev.cairn.durability.file}) uses too. Must not know about blocks, pointers, values or files:
 * those belong to {@code dev.cairn.pile} and the {@code dev.cairn.durability} packages.
 */
package dev.cairn.memory;
