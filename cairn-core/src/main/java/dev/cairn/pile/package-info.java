/**
 * The Pile: an off-heap object store addressed by 64-bit pointers, volatile or persistent.
 *
 * <p>Owns: the public {@link dev.cairn.pile.Pile} API, pointer encoding and validation, the block
 * format inside a segment, the striped allocator with its free lists, coalescing and statistics,
 * transactions, and for a persistent pile ({@link dev.cairn.pile.Pile#open}) the meaning of its
 * files: the journal of each stripe operation and its redo records, checkpoints, recovery, the
 * segment table and stripe metadata, page checksums and the type catalog (see docs/DURABILITY.md
 * and docs/FORMAT.md).
 *
 * <p>Must not reach around {@code dev.cairn.memory} to the OS or around {@code
 * dev.cairn.durability.file} to the file system (every durable byte goes through its {@code
 * FileLayer}, so tests can cut the power under it), and must not know how a non-raw value is
 * encoded beyond calling its {@link dev.cairn.codec.Codec}. Its write-ahead log is {@code
 * dev.cairn.durability.log}'s; the exceptions about its files are {@code dev.cairn.durability}'s.
 */
package dev.cairn.pile;
