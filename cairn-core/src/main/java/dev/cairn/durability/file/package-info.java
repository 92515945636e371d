/**
 * Durable files: the file layer every durable byte of a pile passes through ({@link
 * dev.cairn.durability.file.FileLayer}, {@link dev.cairn.durability.file.RealFileLayer}), the
 * two-slot superblock ({@link dev.cairn.durability.file.Superblock}), the directory lock ({@link
 * dev.cairn.durability.file.DirectoryLock}), and the magic numbers that tell Cairn's kinds of file
 * apart ({@link dev.cairn.durability.file.FileKind}). Not exported: a pile and its log are the
 * users (and {@code cairn}'s tools, through a qualified export).
 *
 * <ul>
 *   <li>A superblock write survives once it has returned; a crash during it leaves the previous
 *       state (I8). A failed fsync fails the superblock for good ({@link
 *       dev.cairn.durability.DurabilityFailedException}, I11).
 *   <li>A full disk: a superblock is preallocated with real blocks when created, so its writes need
 *       no new space.
 *   <li>Creating or renaming a file is durable only after its directory is synced; the code here
 *       does so (superblocks are created by write, force, rename, directory sync).
 *   <li>Two processes on one directory would corrupt it: take {@link
 *       dev.cairn.durability.file.DirectoryLock} first.
 * </ul>
 *
 * <p>Owns: the superblock format ({@link dev.cairn.durability.file.SuperblockLayout}), the native
 * calls files need ({@code NativeFiles}: preallocation), and fault injection's seam ({@code
 * FileLayer}, which tests replace to cut the power under a pile). Must not use {@code
 * dev.cairn.durability.log} (the log builds on this package) or know about piles: superblock
 * payloads are opaque bytes here.
 */
package dev.cairn.durability.file;
