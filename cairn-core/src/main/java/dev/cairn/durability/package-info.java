/**
 * Durability, as a user of a persistent pile sees it: the exceptions a pile raises about its files,
 * and what a salvage of its log reports.
 *
 * <ul>
 *   <li>{@link dev.cairn.durability.CorruptFileException}: a file holds bytes Cairn cannot have
 *       written (a checksum, magic or length that does not match where no crash explains it);
 *       {@link dev.cairn.durability.CorruptLogException} for damage inside the write-ahead log,
 *       which a salvage can cut off ({@link dev.cairn.durability.LogDamage} says what it dropped).
 *   <li>{@link dev.cairn.durability.FormatVersionException}: a file of another kind or format
 *       version.
 *   <li>{@link dev.cairn.durability.DirectoryLockedException}: another process, or another open in
 *       this JVM, has the directory.
 *   <li>{@link dev.cairn.durability.DurabilityFailedException}: a write or fsync failed; nothing
 *       more is acknowledged until the pile is reopened.
 *   <li>{@link dev.cairn.durability.LogFullException}, {@link
 *       dev.cairn.durability.LogClosedException}: the log had no room, or was closed.
 * </ul>
 *
 * All are {@link dev.cairn.CairnException}s, not {@code PileException}s: this package and the two
 * below it must not know about piles, segments, blocks or pointers.
 *
 * <p>The machinery is not exported: {@code dev.cairn.durability.log} (the write-ahead log, its
 * format, group commit and recovery scans) and {@code dev.cairn.durability.file} (the file layer
 * every durable byte passes through, superblocks, the directory lock). Owns here: the exception
 * types and {@code LogDamage}; they must not use those two packages (the dependency runs from them
 * to this one).
 */
package dev.cairn.durability;
