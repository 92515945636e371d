/**
 * Durability: the files that let a pile survive a crash. A write-ahead log ({@link
 * dev.cairn.durability.WriteAheadLog}), a two-slot superblock ({@link
 * dev.cairn.durability.Superblock}), the directory lock ({@link
 * dev.cairn.durability.DirectoryLock}), and the file layer all of them write through ({@link
 * dev.cairn.durability.FileLayer}).
 *
 * <h2>What survives a crash</h2>
 *
 * <ul>
 *   <li>A log record survives any crash (kill -9 or power loss) once {@code syncTo} or {@code
 *       awaitDurable} covering it has returned, or {@code commit} in {@code LogSync.ON_COMMIT}
 *       mode. Recovery returns exactly the records from the checkpoint up to some end at or
 *       after every such record, in order, with no hole (I1, I3).
 *   <li>A record that was only appended (or committed in {@code NO_FORCE} or {@code PERIODIC}
 *       mode) survives a process crash once the flusher has written it (within the write
 *       delay), and a power loss only if a force covered it (in {@code PERIODIC} mode, within a
 *       period). It may be lost, but never with a later record kept: what recovery returns is a
 *       prefix.
 *   <li>A superblock write survives once it has returned; a crash during it leaves the previous
 *       state (I8).
 * </ul>
 *
 * <h2>Caveats, and what handles them</h2>
 *
 * <ul>
 *   <li>A power loss tears pages: a log tail may hold half-written records, zeros, or records
 *       of an earlier pass over a reused file. Each record has a CRC32C, its own LSN and the
 *       writer's epoch, so none of these is ever read as a record (I9). Damage where the log had
 *       been durable is reported as {@link dev.cairn.durability.CorruptLogException}, never
 *       skipped: a later record carries how far the log was durable when it was appended. To
 *       get back the records before the damage, open with {@link
 *       dev.cairn.durability.LogRecovery#SALVAGE}, which drops everything from the damage on
 *       and keeps a copy of the damaged files.
 *   <li>A failed fsync cannot be retried (Linux drops the dirty pages). The log and the
 *       superblock then fail for good, acknowledging nothing more ({@link
 *       dev.cairn.durability.DurabilityFailedException}, I11). Reopen to recover.
 *   <li>A full disk: log files and the superblock are preallocated with real blocks when
 *       created, so appends and superblock writes do not need new space; creating them on a
 *       full disk throws {@link java.io.IOException}. A write that still fails fails the log
 *       as above; nothing crashes the JVM.
 *   <li>Creating or renaming a file is durable only after its directory is synced; the code
 *       here does so (superblocks are created by write, force, rename, directory sync).
 *   <li>Two processes on one directory would corrupt it: take {@link
 *       dev.cairn.durability.DirectoryLock} first.
 *   <li>A log that fills up between checkpoints throws {@link
 *       dev.cairn.durability.LogFullException}; the caller checkpoints and calls {@code
 *       truncateBefore}.
 * </ul>
 *
 * <p>Owns: the on-disk formats of log files and superblocks ({@link
 * dev.cairn.durability.LogLayout}, {@link dev.cairn.durability.SuperblockLayout}), group commit,
 * recovery scans, and fault injection's seam. Must not know about piles, segments, blocks or
 * pointers: records and superblock payloads are opaque bytes here, given meaning by {@code
 * dev.cairn.pile}.
 */
package dev.cairn.durability;
