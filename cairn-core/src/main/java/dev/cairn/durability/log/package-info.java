/**
 * The write-ahead log that lets a pile survive a crash: {@link
 * dev.cairn.durability.log.WriteAheadLog} (appends from many threads, written in batches by one
 * flusher, made durable by shared forces), {@link dev.cairn.durability.log.LogReader} (reading a
 * log without opening it for writing), and the log's on-disk format ({@link
 * dev.cairn.durability.log.LogLayout}). Not exported: a pile is its one user (and {@code cairn}'s
 * tools, through a qualified export).
 *
 * <h2>What survives a crash</h2>
 *
 * <ul>
 *   <li>A log record survives any crash (kill -9 or power loss) once {@code syncTo} or {@code
 *       awaitDurable} covering it has returned, or {@code commit} in {@link
 *       dev.cairn.durability.log.LogSync#ON_COMMIT} mode. Recovery returns exactly the records from
 *       the checkpoint up to some end at or after every such record, in order, with no hole (I1,
 *       I3).
 *   <li>A record that was only appended (or committed in {@code NO_FORCE} or {@code PERIODIC} mode)
 *       survives a process crash once the flusher has written it (within the write delay), and a
 *       power loss only if a force covered it (in {@code PERIODIC} mode, within a period). It may
 *       be lost, but never with a later record kept: what recovery returns is a prefix.
 * </ul>
 *
 * <h2>Caveats, and what handles them</h2>
 *
 * <ul>
 *   <li>A power loss tears pages: a log tail may hold half-written records, zeros, or records of an
 *       earlier pass over a reused file. Each record has a CRC32C, its own LSN and the writer's
 *       epoch, so none of these is ever read as a record (I9). Damage where the log had been
 *       durable is reported as {@link dev.cairn.durability.CorruptLogException}, never skipped: a
 *       later record carries how far the log was durable when it was appended. To get back the
 *       records before the damage, open with {@link dev.cairn.durability.log.LogRecovery#SALVAGE},
 *       which drops everything from the damage on and keeps a copy of the damaged files.
 *   <li>A failed fsync cannot be retried (Linux drops the dirty pages). The log then fails for
 *       good, acknowledging nothing more ({@link dev.cairn.durability.DurabilityFailedException},
 *       I11). Reopen to recover.
 *   <li>A full disk: log files are preallocated with real blocks when created, so appends do not
 *       need new space; creating them on a full disk throws {@link java.io.IOException}. A write
 *       that still fails fails the log as above; nothing crashes the JVM.
 *   <li>A log that fills up between checkpoints throws {@link
 *       dev.cairn.durability.LogFullException}; the caller checkpoints and calls {@code
 *       truncateBefore}.
 * </ul>
 *
 * <p>Owns: the log files' format, group commit, recovery scans and salvage, and the log's own
 * metadata (kept in a superblock). Writes through {@code dev.cairn.durability.file}, never around
 * it, and raises the exceptions of {@code dev.cairn.durability}. Must not know about piles,
 * segments, blocks or pointers: records are opaque bytes here, given meaning by {@code
 * dev.cairn.pile}.
 */
package dev.cairn.durability.log;
