package dev.cairn.pile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * An off-heap object store: put a value, get a 64-bit pointer; get, update and delete by pointer.
 *
 * <p>Values live in large native memory segments that the garbage collector never scans. {@code
 * byte[]} and {@code String} (as UTF-8) are stored raw; any other type goes through a {@link
 * dev.cairn.codec.Codec} registered in {@link PileOptions}.
 *
 * <p><b>Pointers</b> are opaque, never {@code 0} ({@link #NULL}), and carry a tag that is checked
 * on every access: a deleted pointer, or one whose memory has been reused, raises {@link
 * StalePointerException}; a pointer this pile never handed out raises {@link
 * InvalidPointerException}. A pointer stays valid across {@link #update(long, Object)}, even when
 * the new value no longer fits and has to move.
 *
 * <p><b>Thread safety</b>: every method may be called from any number of threads. Reads are
 * lock-free and never return torn bytes: a read racing with an update or delete of the same pointer
 * returns the old value, the new value, or throws {@link StalePointerException}.
 *
 * <p>Example:
 *
 * {@snippet class=dev.cairn.pile.ApiExamplesTest region=quick-start}
 */
public interface Pile extends AutoCloseable {

  /** A pointer value that no pile ever hands out. */
  long NULL = 0L;

  /** Opens a new, empty volatile pile in native memory. */
  static Pile offHeap(PileOptions options) {
    return new OffHeapPile(options);
  }

  /**
   * Opens the persistent pile in {@code directory}, creating it (and the directory) if absent.
   * Values live in memory-mapped segment files; reopening maps them and serves reads and writes at
   * once, whatever the size. What survives a crash is set by {@link PileOptions#durability()};
   * after a crash, recovery runs here, in time bounded by the log written since the last
   * checkpoint.
   *
   * <p>The geometry ({@code segmentBytes}, {@code stripes}) is fixed when the pile is created; an
   * existing pile keeps its own. Pointers stay valid across close and reopen.
   *
   * <p>Which directories it takes ({@link PileOptions#openMode()}): a pile's directory (one with
   * {@code pile.sb}) is opened; a missing or empty directory (a lone {@code cairn.lock} counts as
   * empty) gets a new pile, unless the mode is {@link PileOptions.OpenMode#OPEN_EXISTING}; {@link
   * PileOptions.OpenMode#CREATE_NEW} refuses a directory that holds a pile. Anything else is
   * refused and left exactly as it was: Cairn never deletes, truncates or overwrites a file that
   * the pile's own superblock, or its own interrupted create, does not account for. A create that
   * failed (a full disk, say) removes what it made; a create that a crash interrupted is redone by
   * the next open. See docs/DURABILITY.md, "Opening a directory".
   *
   * <p>Thread-safe: a directory has one owner at a time, in this process or another.
   *
   * {@snippet class=dev.cairn.pile.ApiExamplesTest region=open}
   *
   * @throws dev.cairn.durability.DirectoryLockedException if another process or another open pile
   *     holds the directory
   * @throws dev.cairn.durability.CorruptFileException if a file is damaged in a way recovery cannot
   *     explain; the message names the file and offset. Also for a directory that holds a pile's
   *     files (segments, metadata, type catalog, {@code wal/}) without its superblock {@code
   *     pile.sb}: nothing is changed; restore {@code pile.sb} from a backup, or choose another
   *     directory if the files are not a pile's
   * @throws dev.cairn.durability.FormatVersionException if a file is of another format version or
   *     kind
   * @throws java.nio.file.NotDirectoryException if {@code directory} is a regular file
   * @throws java.nio.file.DirectoryNotEmptyException if the directory holds no pile but other
   *     files, and the mode would create one; nothing is changed
   * @throws java.nio.file.FileAlreadyExistsException with {@link PileOptions.OpenMode#CREATE_NEW},
   *     if the directory holds a pile
   * @throws java.nio.file.NoSuchFileException with {@link PileOptions.OpenMode#OPEN_EXISTING}, if
   *     the directory holds no pile; nothing is created
   * @throws java.nio.file.FileSystemException if a new pile's files cannot be created (a full disk,
   *     say): the message names the directory, the file, the bytes needed and the cause, and what
   *     the create made is removed
   * @throws IOException if the files cannot be read or written
   */
  static Pile open(java.nio.file.Path directory, PileOptions options) throws IOException {
    return PersistentStore.open(
        dev.cairn.durability.file.RealFileLayer.INSTANCE, directory, options);
  }

  /**
   * Stores a value and returns its pointer.
   *
   * @throws dev.cairn.codec.UnknownTypeException if the value's class has no codec and is not
   *     allowed
   * @throws ValueTooLargeException if no segment can hold the value, or, in a pile with a log, one
   *     log record cannot carry it (an {@link IllegalArgumentException}); nothing was written
   * @throws IllegalArgumentException if the value's class is allowed but cannot be stored (the
   *     message says why)
   * @throws PileFullException if the memory budget cannot take it; the pile is unchanged
   * @throws PileClosedException if the pile is closed
   */
  long put(Object value);

  /**
   * Stores a value with room for it to grow by {@code extraCapacityBytes} without moving, so that
   * later {@link #update(long, Object)} calls up to that size are done in place.
   */
  long put(Object value, int extraCapacityBytes);

  /** Returns the stored value as the type it was put as: {@code byte[]}, {@code String} or T. */
  Object get(long pointer);

  /**
   * Returns the stored value, cast to {@code type}.
   *
   * @throws ClassCastException if the stored value is not a {@code type}
   */
  <T> T get(long pointer, Class<T> type);

  /**
   * Returns a new array holding the stored bytes (the UTF-8 for a string, as {@link
   * dev.cairn.codec.Utf8} writes it; the encoding for an object).
   */
  byte[] getBytes(long pointer);

  /**
   * Copies the stored bytes into {@code dst} at {@code offset} and returns their number: the
   * allocation-free read for a reused buffer.
   *
   * @throws IllegalArgumentException if {@code dst} has fewer than {@link #sizeOf(long)} bytes from
   *     {@code offset}; nothing is copied
   */
  int getBytes(long pointer, byte[] dst, int offset);

  /**
   * Returns a stored {@link ValueKind#STRING} value.
   *
   * @throws ClassCastException if the value is not a string
   */
  String getString(long pointer);

  /**
   * Copies the stored bytes into {@code dst} at its position, advancing it, and returns their
   * number. Works with heap and direct buffers, with no intermediate array.
   *
   * @throws java.nio.BufferOverflowException if {@code dst} has fewer bytes remaining than the
   *     value's size; {@code dst} is unchanged
   */
  int read(long pointer, ByteBuffer dst);

  /**
   * Writes the stored bytes to {@code channel} (a socket, a file) without an intermediate array and
   * returns their number. The bytes written are never torn: if the value changes or is deleted part
   * way, a {@link StalePointerException} is thrown after the bytes already written, all of which
   * belong to the value as it was when the call started.
   */
  long transferTo(long pointer, WritableByteChannel channel) throws IOException;

  /** Reads the stored bytes in place through a bounded read-only view; see {@link ValueReader}. */
  <R> R read(long pointer, ValueReader<R> reader);

  /**
   * Replaces the value at {@code pointer}. The value is rewritten in place when it fits the block's
   * capacity; otherwise it moves and {@code pointer} keeps resolving to it. The update is all or
   * nothing: on {@link PileFullException} the old value is intact.
   */
  void update(long pointer, Object value);

  /**
   * Deletes the value; {@code pointer} becomes stale.
   *
   * @throws StalePointerException if it was already deleted
   */
  void delete(long pointer);

  /** The stored payload length in bytes. */
  int sizeOf(long pointer);

  /** How the value at {@code pointer} is stored. */
  ValueKind kindOf(long pointer);

  /**
   * Visits every live entry once, in O(N) total. Entries put or deleted during the walk may or may
   * not be visited; entries present throughout are visited exactly once.
   */
  void forEach(EntryVisitor visitor);

  /**
   * Visits every live value with its stored bytes, in storage order: the fastest way to read
   * everything, for an export, a warm-up or an index rebuilt after a reopen. The pile copies its
   * blocks a megabyte at a time into a buffer under each stripe's lock, then calls the visitor with
   * no lock held, so the visitor may use the pile, and writers wait at most for one copy. Values
   * put, updated or deleted during the scan may or may not be visited (an updated one with its old
   * or its new bytes, never a mix); values present throughout are visited exactly once.
   *
   * {@snippet class=dev.cairn.pile.ApiExamplesTest region=scan}
   */
  void scan(ValueVisitor visitor);

  /** Deletes everything and returns all segments to the OS. Every pointer becomes stale. */
  void purge();

  /** A consistent-enough snapshot of the counters (each stripe is read under its lock). */
  PileStats stats();

  /**
   * The pile's persistence figures: recovery at open, log position, checkpoints. Cheap: reads
   * counters, takes no lock.
   *
   * @throws PileClosedException if the pile is closed
   */
  DurabilityStats durabilityStats();

  /**
   * Walks every segment and checks the allocator invariants: blocks tile each segment with no
   * overlap, live plus free equals capacity, free lists hold exactly the free blocks with correct
   * sizes and no two free blocks are neighbours, and the counters match what the walk found.
   *
   * @throws PileCorruptionException naming the segment, offset and invariant that failed
   */
  void verify();

  /**
   * The pointer stored under {@code name} by {@link #setRoot}, or {@link #NULL} if there is none:
   * how data in a persistent pile is found again after a restart without keeping pointers
   * elsewhere. A root names a pointer, not a value: after the value is deleted the root still
   * returns its (now stale) pointer, until it is set again or removed.
   *
   * {@snippet class=dev.cairn.pile.ApiExamplesTest region=root}
   *
   * <p>Thread-safe; lock-free.
   *
   * @throws PileClosedException if the pile is closed
   */
  long root(String name);

  /**
   * Stores {@code pointer} under {@code name}, replacing what was there; {@link #NULL} removes the
   * root. In a persistent pile the change is logged, and is as durable as a put (with {@link
   * Durability#SYNC} it is on stable storage when this returns); a checkpoint writes every root
   * into the pile's metadata. A pile holds at most 4,096 roots.
   *
   * <p>Thread-safe.
   *
   * @throws IllegalArgumentException if the name is blank or longer than 255 bytes of UTF-8
   * @throws IllegalStateException if the pile holds 4,096 roots already and {@code name} is new
   * @throws StalePointerException if {@code pointer} names a deleted value
   * @throws InvalidPointerException if this pile never handed {@code pointer} out
   * @throws PileClosedException if the pile is closed
   */
  void setRoot(String name, long pointer);

  /** Every root, by name, sorted: a copy. Thread-safe. */
  java.util.Map<String, Long> roots();

  /** Starts a transaction: puts, updates and deletes that take effect together. */
  Transaction beginTransaction();

  /**
   * Makes everything written so far durable in the pile's files and bounds the log: a checkpoint. A
   * persistent pile also checkpoints in the background when its log fills, and on close; with
   * {@link Durability#NONE} this and {@link #close()} are the only times its files change. Does
   * nothing for a volatile pile.
   *
   * @throws dev.cairn.durability.DurabilityFailedException if writing failed; the pile then accepts
   *     no more writes, and reopening it recovers
   */
  void checkpoint();

  /**
   * Reads a persistent pile's segment files in the background, one after another in large
   * sequential reads, so that the reads that follow a reopen find their pages in the page cache
   * instead of each waiting for the disk. Reads and writes go on meanwhile; the first get after
   * {@link #open} does not wait for it. Completes when every segment file has been read (or at once
   * for a volatile pile); completes exceptionally with the {@link java.io.IOException} a read
   * failed with. Stops early, completing normally, if the pile closes.
   *
   * {@snippet class=dev.cairn.pile.ApiExamplesTest region=prefetch}
   */
  java.util.concurrent.CompletableFuture<Void> prefetch();

  /** Releases all memory. Any later call, from any thread, throws {@link PileClosedException}. */
  @Override
  void close();
}
