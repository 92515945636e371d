/**
 * The Pile: an off-heap object store addressed by 64-bit pointers.
 *
 * <p>Owns: the public {@link dev.cairn.pile.Pile} API, pointer encoding and validation, the
 * block format inside a segment, and the striped allocator with its free lists, coalescing and
 * statistics. Must not reach around {@code dev.cairn.memory} to the OS, and must not know how a
 * non-raw value is encoded beyond calling its {@link dev.cairn.codec.Codec}.
 */
package dev.cairn.pile;
