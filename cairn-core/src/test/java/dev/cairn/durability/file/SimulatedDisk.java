package dev.cairn.durability.file;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A disk that can lose power, in pure Java: the {@link FileLayer} for crash tests (after Lucene's
 * {@code MockDirectoryWrapper.crash()} and RocksDB's {@code FaultInjectionTestFS}).
 *
 * <h2>Model</h2>
 *
 * <pre>{@code
 * Files: each inode keeps its current bytes (what reads return) and its durable image (what
 * survives for sure), plus the set of 4 KiB pages written since the last force. force() copies
 * the current bytes and size into the durable image.
 *
 * Names: creations, renames and deletions apply at once to the current namespace and are
 * queued per directory; syncDirectory(dir) makes that directory's queue durable. Directories
 * themselves are durable when created, and an empty one deleted is gone durably (simplification).
 *
 * Power loss (powerLoss(seed), or crashAtOperation(n, seed) in the middle of the n-th mutating
 * operation): per directory a random prefix of the queued name operations survives (journaled
 * file systems apply them in order). Per file, the size is the durable one, the current one,
 * or a page boundary between; each page written since the last force is kept old, taken new,
 * or torn: a 512-byte sector boundary splits it into an old part and a new part, in either
 * order. Space past the old size reads as zeros. Then the disk is down until reboot(), and
 * every handle opened before the loss throws (except close()).
 *
 * Process crash (processCrash()): every handle dies, nothing else changes; the next process
 * reads the unsynced bytes, which a later power loss may still tear.
 *
 * Faults: failNextForce(file) makes that file's next force throw: its unsynced pages are
 * resolved at random (as at a power loss) into the durable image and marked clean, as Linux
 * does, and the handle throws from then on. setCapacityBytes() makes a write that needs more
 * blocks throw "No space left on device"; failWritesWithNoSpace(true) makes every write throw
 * it (a thin-provisioned or copy-on-write disk).
 *
 * Slow forces: holdForces() makes every force wait, outside the disk's lock (so that writes and
 * reads go on), until releaseForces(); awaitHeldForce() waits until one does.
 *
 * Determinism: with one thread the outcome depends only on the operations and the seeds. Name
 * maps are sorted, so iteration order is fixed.
 * }</pre>
 *
 * Thread-safe: every operation holds the disk's lock, so each is atomic.
 */
public final class SimulatedDisk implements FileLayer {

  static final int PAGE_BYTES = 4096;
  static final int SECTOR_BYTES = 512;

  private static final class Inode {
    byte[] data = new byte[0];
    long length;
    byte[] durable = new byte[0];
    long durableLength;
    final BitSet dirtyPages = new BitSet();
  }

  private sealed interface NameOp {}

  private record Create(Path path, Inode inode) implements NameOp {}

  private record Delete(Path path) implements NameOp {}

  private record Rename(Path source, Path target, Inode inode) implements NameOp {}

  private final TreeMap<Path, Inode> names = new TreeMap<>();
  private final TreeMap<Path, Inode> durableNames = new TreeMap<>();
  private final TreeMap<Path, List<NameOp>> pending = new TreeMap<>();
  private final TreeSet<Path> directories = new TreeSet<>();

  private int generation;
  private boolean down;
  private long operations;
  private long crashAtOperation = -1;
  private long crashSeed;
  private boolean killOnly;
  private long powerLosses;
  private long capacityBytes = Long.MAX_VALUE;
  private boolean writesFailWithNoSpace;
  private Path failForceOf;
  private boolean failForceArmed;
  private long forceFailureSeed;
  private Path failWritesOf;
  private int writesBeforeFailing;
  private final TreeMap<Path, Long> forces = new TreeMap<>();

  // holdForces: a lock of its own, never held with the disk's
  private final Object forceGate = new Object();
  private boolean forcesHeld; // guarded by forceGate
  private int forcesWaiting; // guarded by forceGate

  public SimulatedDisk() {
    directories.add(root());
  }

  private static Path root() {
    return Path.of("/");
  }

  // ==================================================================== fault injection

  /** Loses power now: unsynced state is resolved page by page from {@code seed}. */
  public synchronized void powerLoss(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (Map.Entry<Path, List<NameOp>> entry : pending.entrySet()) {
      List<NameOp> ops = entry.getValue();
      int keep = random.nextInt(ops.size() + 1);
      for (NameOp op : ops.subList(0, keep)) {
        apply(durableNames, op);
      }
    }
    pending.clear();
    IdentityHashMap<Inode, Boolean> done = new IdentityHashMap<>();
    for (Inode inode : durableNames.values()) {
      if (done.put(inode, Boolean.TRUE) == null) {
        resolve(inode, random, true);
      }
    }
    names.clear();
    names.putAll(durableNames);
    generation++;
    down = true;
    powerLosses++;
    crashAtOperation = -1;
    failForceArmed = false; // injected faults do not survive a reboot
  }

  /**
   * The process dies (kill -9) but the machine stays up: every open handle dies, and nothing else
   * changes. Unsynced bytes stay in the "page cache": readable by the next process, still at risk
   * from a later power loss.
   */
  public synchronized void processCrash() {
    generation++;
  }

  /** Brings the disk back after a power loss; old handles stay dead. */
  public synchronized void reboot() {
    down = false;
  }

  /**
   * Loses power in the middle of mutating operation number {@code operation} (counting from 1; see
   * {@link #operationCount()}): a write is cut after a random number of bytes, any other operation
   * happens or not, then {@link #powerLoss(long)} with {@code seed}.
   */
  public synchronized void crashAtOperation(long operation, long seed) {
    this.crashAtOperation = operation;
    this.crashSeed = seed;
    this.killOnly = false;
  }

  /**
   * The process dies ({@link #processCrash()}) in the middle of mutating operation number {@code
   * operation}: a write is cut after a random number of bytes, any other operation happens or not.
   * The disk stays up.
   */
  public synchronized void killAtOperation(long operation, long seed) {
    crashAtOperation(operation, seed);
    this.killOnly = true;
  }

  /** Disarms {@link #crashAtOperation}, {@link #killAtOperation} and {@link #failNextForce}. */
  public synchronized void disarmCrash() {
    this.crashAtOperation = -1;
    this.failForceArmed = false;
  }

  /** Mutating operations so far (writes, forces, size changes, name changes, syncs). */
  public synchronized long operationCount() {
    return operations;
  }

  public synchronized boolean isDown() {
    return down;
  }

  public synchronized long powerLosses() {
    return powerLosses;
  }

  /**
   * Completed forces of the files at or under {@code path} (a file or a directory), since the disk
   * was made: how a test sees whether a commit asked for the disk's guarantee.
   */
  public synchronized long forceCount(Path path) {
    long n = 0;
    for (Map.Entry<Path, Long> e : forces.entrySet()) {
      if (e.getKey().startsWith(path)) {
        n += e.getValue();
      }
    }
    return n;
  }

  /** The next force of {@code file} (any file if null) fails; see the class comment. */
  public synchronized void failNextForce(Path file, long seed) {
    this.failForceOf = file;
    this.failForceArmed = true;
    this.forceFailureSeed = seed;
  }

  /** From now on every force waits, holding no lock of the disk's, until {@link #releaseForces}. */
  public void holdForces() {
    synchronized (forceGate) {
      forcesHeld = true;
    }
  }

  /** The forces held go on, and later ones do not wait. */
  public void releaseForces() {
    synchronized (forceGate) {
      forcesHeld = false;
      forceGate.notifyAll();
    }
  }

  /**
   * Waits until a force is held ({@link #holdForces}).
   *
   * @throws AssertionError if none is within {@code timeout}
   */
  public void awaitHeldForce(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (forceGate) {
      while (forcesWaiting == 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("no force came within " + timeout);
        }
        forceGate.wait(Math.max(1, left / 1_000_000));
      }
    }
  }

  private void waitWhileForcesHeld() throws IOException {
    synchronized (forceGate) {
      if (!forcesHeld) {
        return;
      }
      forcesWaiting++;
      forceGate.notifyAll();
      try {
        while (forcesHeld) {
          forceGate.wait();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while the simulated disk held forces", e);
      } finally {
        forcesWaiting--;
      }
    }
  }

  /** Total bytes of file blocks (4 KiB pages) the disk can hold. */
  public synchronized void setCapacityBytes(long capacityBytes) {
    this.capacityBytes = capacityBytes;
  }

  public synchronized void failWritesWithNoSpace(boolean fail) {
    this.writesFailWithNoSpace = fail;
  }

  /**
   * Writes to {@code file} fail with "No space left on device" (as overwrites can on a
   * copy-on-write file system) once {@code succeeding} more of them have succeeded, until this is
   * called again; a null file stops it.
   */
  public synchronized void failWritesOf(Path file, int succeeding) {
    this.failWritesOf = file == null ? null : normalize(file);
    this.writesBeforeFailing = succeeding;
  }

  /** Bytes of blocks in use: every named file's size rounded up to pages. */
  public synchronized long usedBytes() {
    long used = 0;
    IdentityHashMap<Inode, Boolean> seen = new IdentityHashMap<>();
    for (Inode inode : names.values()) {
      if (seen.put(inode, Boolean.TRUE) == null) {
        used += pagesFor(inode.length) * PAGE_BYTES;
      }
    }
    return used;
  }

  /** What would survive if power were lost and every unsynced byte dropped. */
  public synchronized byte[] durableContent(Path file) throws NoSuchFileException {
    Inode inode = inode(file);
    return Arrays.copyOf(inode.durable, (int) inode.durableLength);
  }

  /** What a read returns now. */
  public synchronized byte[] currentContent(Path file) throws NoSuchFileException {
    Inode inode = inode(file);
    return Arrays.copyOf(inode.data, (int) inode.length);
  }

  /** The durable image as a native segment of {@code arena}: a stand-in for mapping the file. */
  MemorySegment mapDurable(Path file, Arena arena) throws NoSuchFileException {
    byte[] bytes = durableContent(file);
    MemorySegment segment = arena.allocate(Math.max(1, bytes.length), 8);
    MemorySegment.copy(bytes, 0, segment, ValueLayout.JAVA_BYTE, 0, bytes.length);
    return segment.asSlice(0, bytes.length);
  }

  /** A deep copy of this disk's files, names and pending name changes (not its handles). */
  public synchronized SimulatedDisk snapshot() {
    SimulatedDisk copy = new SimulatedDisk();
    IdentityHashMap<Inode, Inode> copies = new IdentityHashMap<>();
    java.util.function.Function<Inode, Inode> copyOf =
        inode ->
            copies.computeIfAbsent(
                inode,
                i -> {
                  Inode c = new Inode();
                  c.data = i.data.clone();
                  c.length = i.length;
                  c.durable = i.durable.clone();
                  c.durableLength = i.durableLength;
                  c.dirtyPages.or(i.dirtyPages);
                  return c;
                });
    names.forEach((path, inode) -> copy.names.put(path, copyOf.apply(inode)));
    durableNames.forEach((path, inode) -> copy.durableNames.put(path, copyOf.apply(inode)));
    pending.forEach(
        (dir, ops) ->
            copy.pending.put(
                dir,
                new ArrayList<>(
                    ops.stream()
                        .map(
                            op ->
                                switch (op) {
                                  case Create(Path path, Inode inode) ->
                                      (NameOp) new Create(path, copyOf.apply(inode));
                                  case Delete d -> d;
                                  case Rename(Path source, Path target, Inode inode) ->
                                      new Rename(source, target, copyOf.apply(inode));
                                })
                        .toList())));
    copy.directories.addAll(directories);
    copy.down = down;
    return copy;
  }

  // ==================================================================== FileLayer

  @Override
  public synchronized FileHandle open(Path file, OpenMode mode) throws IOException {
    checkUp();
    Path path = normalize(file);
    Inode inode = names.get(path);
    switch (mode) {
      case READ, READ_WRITE -> {
        if (inode == null) {
          throw new NoSuchFileException(path.toString());
        }
      }
      case CREATE, CREATE_NEW -> {
        if (inode != null && mode == OpenMode.CREATE_NEW) {
          throw new FileAlreadyExistsException(path.toString());
        }
        if (inode == null) {
          requireDirectory(path.getParent());
          mutation();
          inode = new Inode();
          Create op = new Create(path, inode);
          apply(names, op);
          queue(path, op);
          checkCrashAfter();
        }
      }
    }
    return new Handle(path, inode, generation, mode == OpenMode.READ);
  }

  @Override
  public synchronized boolean exists(Path path) throws IOException {
    checkUp();
    Path p = normalize(path);
    return names.containsKey(p) || directories.contains(p);
  }

  @Override
  public synchronized boolean isDirectory(Path path) throws IOException {
    checkUp();
    return directories.contains(normalize(path));
  }

  @Override
  public synchronized List<Path> list(Path directory) throws IOException {
    checkUp();
    Path dir = normalize(directory);
    requireDirectory(dir);
    TreeSet<Path> entries = new TreeSet<>();
    for (Path name : names.keySet()) {
      if (dir.equals(name.getParent())) {
        entries.add(name);
      }
    }
    for (Path sub : directories) {
      if (dir.equals(sub.getParent())) {
        entries.add(sub);
      }
    }
    return new ArrayList<>(entries);
  }

  @Override
  public synchronized void createDirectories(Path directory) throws IOException {
    checkUp();
    Path dir = normalize(directory);
    for (Path p = dir; p != null; p = p.getParent()) {
      if (names.containsKey(p)) {
        throw new FileAlreadyExistsException(p + " is a file");
      }
      directories.add(p);
    }
  }

  @Override
  public synchronized void delete(Path file) throws IOException {
    checkUp();
    Path path = normalize(file);
    if (!names.containsKey(path)) {
      if (directories.contains(path)) { // an empty one only, durable at once (simplification)
        for (Path p : names.keySet()) {
          if (path.equals(p.getParent())) {
            throw new java.nio.file.DirectoryNotEmptyException(path.toString());
          }
        }
        for (Path sub : directories) {
          if (path.equals(sub.getParent())) {
            throw new java.nio.file.DirectoryNotEmptyException(path.toString());
          }
        }
        mutation();
        directories.remove(path);
        checkCrashAfter();
      }
      return;
    }
    mutation();
    Delete op = new Delete(path);
    apply(names, op);
    queue(path, op);
    checkCrashAfter();
  }

  @Override
  public synchronized void rename(Path source, Path target) throws IOException {
    checkUp();
    Path from = normalize(source);
    Path to = normalize(target);
    if (!from.getParent().equals(to.getParent())) {
      throw new IOException(
          "simulated disk renames within one directory only: " + from + " -> " + to);
    }
    Inode inode = names.get(from);
    if (inode == null) {
      throw new NoSuchFileException(from.toString());
    }
    mutation();
    Rename op = new Rename(from, to, inode);
    apply(names, op);
    queue(from, op);
    checkCrashAfter();
  }

  @Override
  public synchronized void syncDirectory(Path directory) throws IOException {
    checkUp();
    Path dir = normalize(directory);
    requireDirectory(dir);
    if (mutationCrashes()) {
      return; // not applied
    }
    List<NameOp> ops = pending.remove(dir);
    if (ops != null) {
      for (NameOp op : ops) {
        apply(durableNames, op);
      }
    }
  }

  // ==================================================================== internals

  private static Path normalize(Path path) {
    return path.toAbsolutePath().normalize();
  }

  private void checkUp() throws IOException {
    if (down) {
      throw new IOException("simulated disk is down after a power loss; reboot() it");
    }
  }

  private void requireDirectory(Path dir) throws NoSuchFileException {
    if (dir == null || !directories.contains(dir)) {
      throw new NoSuchFileException(String.valueOf(dir), null, "no such directory");
    }
  }

  private Inode inode(Path file) throws NoSuchFileException {
    Inode inode = names.get(normalize(file));
    if (inode == null) {
      throw new NoSuchFileException(file.toString());
    }
    return inode;
  }

  private void queue(Path path, NameOp op) {
    pending.computeIfAbsent(path.getParent(), k -> new ArrayList<>()).add(op);
  }

  private static void apply(Map<Path, Inode> namespace, NameOp op) {
    switch (op) {
      case Create(Path path, Inode inode) -> namespace.put(path, inode);
      case Delete(Path path) -> namespace.remove(path);
      case Rename(Path source, Path target, Inode inode) -> {
        if (namespace.get(source) == inode) {
          namespace.remove(source);
          namespace.put(target, inode);
        }
      }
    }
  }

  private void mutation() {
    operations++;
  }

  /** Counts a mutation; true if power is lost during it (the caller skips the effect). */
  private boolean mutationCrashes() throws IOException {
    operations++;
    if (operations == crashAtOperation) {
      crash();
      return true;
    }
    return false;
  }

  /** After a mutation that took effect: loses power if this was the armed operation. */
  private void checkCrashAfter() throws IOException {
    if (operations == crashAtOperation) {
      crash();
    }
  }

  private void crash() throws IOException {
    if (killOnly) {
      crashAtOperation = -1;
      processCrash();
      throw new IOException("simulated process crash");
    }
    powerLoss(crashSeed);
    throw new IOException("simulated power loss");
  }

  private static long pagesFor(long length) {
    return (length + PAGE_BYTES - 1) / PAGE_BYTES;
  }

  private void ensureCapacity(Inode inode, long length) {
    if (inode.data.length < length) {
      inode.data = Arrays.copyOf(inode.data, (int) Math.max(length, inode.data.length * 2L));
    }
  }

  /** Writes bytes (or zeros if {@code source} is null) into the current image. */
  private void writeBytes(Inode inode, byte[] source, long position, int length) {
    long end = position + length;
    ensureCapacity(inode, end);
    if (position > inode.length) {
      Arrays.fill(inode.data, (int) inode.length, (int) position, (byte) 0);
    }
    if (source == null) {
      Arrays.fill(inode.data, (int) position, (int) end, (byte) 0);
    } else {
      System.arraycopy(source, 0, inode.data, (int) position, length);
    }
    if (length > 0) {
      inode.dirtyPages.set((int) (position / PAGE_BYTES), (int) ((end - 1) / PAGE_BYTES) + 1);
    }
    if (end > inode.length) {
      markSizeChange(inode, inode.length, end);
      inode.length = end;
    }
  }

  private static void markSizeChange(Inode inode, long from, long to) {
    long low = Math.min(from, to);
    long high = Math.max(from, to);
    if (high > low) {
      inode.dirtyPages.set((int) (low / PAGE_BYTES), (int) pagesFor(high));
    }
  }

  /**
   * Resolves an inode's unsynced pages at random into its durable image. At a power loss the size
   * may change and the current image becomes the durable one; at a failed force only the durable
   * image changes (the page cache still holds the new bytes).
   */
  private static void resolve(Inode inode, SplittableRandom random, boolean powerLoss) {
    long oldLength = inode.durableLength;
    long newLength = inode.length;
    long length;
    if (oldLength == newLength) {
      length = newLength;
    } else {
      switch (random.nextInt(3)) {
        case 0 -> length = oldLength;
        case 1 -> length = newLength;
        default -> {
          long lowPage = Math.min(oldLength, newLength) / PAGE_BYTES;
          long highPage = pagesFor(Math.max(oldLength, newLength));
          length =
              Math.min(
                  Math.max(oldLength, newLength),
                  (lowPage + random.nextLong(highPage - lowPage + 1)) * PAGE_BYTES);
          length = Math.max(length, Math.min(oldLength, newLength));
        }
      }
    }
    byte[] result = new byte[(int) length];
    System.arraycopy(inode.durable, 0, result, 0, (int) Math.min(oldLength, length));
    for (int page = inode.dirtyPages.nextSetBit(0);
        page >= 0 && (long) page * PAGE_BYTES < length;
        page = inode.dirtyPages.nextSetBit(page + 1)) {
      int from = page * PAGE_BYTES;
      int to = (int) Math.min(length, from + (long) PAGE_BYTES);
      int choice = random.nextInt(3);
      if (choice == 0) {
        copyVersion(inode.durable, oldLength, result, from, to); // old
      } else if (choice == 1) {
        copyVersion(inode.data, newLength, result, from, to); // new
      } else {
        int sectors = PAGE_BYTES / SECTOR_BYTES;
        int split = from + (1 + random.nextInt(sectors - 1)) * SECTOR_BYTES;
        boolean newFirst = random.nextBoolean();
        int mid = Math.min(split, to);
        copyVersion(
            newFirst ? inode.data : inode.durable,
            newFirst ? newLength : oldLength,
            result,
            from,
            mid);
        copyVersion(
            newFirst ? inode.durable : inode.data,
            newFirst ? oldLength : newLength,
            result,
            mid,
            to);
      }
    }
    inode.durable = result;
    inode.durableLength = length;
    inode.dirtyPages.clear();
    if (powerLoss) {
      inode.data = result.clone();
      inode.length = length;
    }
  }

  /** Copies {@code [from, to)} of one version (zeros past its length) into {@code result}. */
  private static void copyVersion(
      byte[] version, long versionLength, byte[] result, int from, int to) {
    int end = (int) Math.min(to, versionLength);
    if (end > from) {
      System.arraycopy(version, from, result, from, end - from);
    }
    if (Math.max(from, end) < to) {
      Arrays.fill(result, Math.max(from, end), to, (byte) 0);
    }
  }

  // ==================================================================== handle

  private final class Handle implements FileHandle {
    private final Path path;
    private final Inode inode;
    private final int openedInGeneration;
    private final boolean readOnly;
    private boolean closed;
    private IOException failed;

    Handle(Path path, Inode inode, int generation, boolean readOnly) {
      this.path = path;
      this.inode = inode;
      this.openedInGeneration = generation;
      this.readOnly = readOnly;
    }

    private void check(boolean writing) throws IOException {
      if (closed) {
        throw new IOException("closed: " + path);
      }
      if (openedInGeneration != generation) {
        throw new IOException("stale handle of " + path + ": power was lost since it was opened");
      }
      checkUp();
      if (failed != null) {
        throw new IOException("handle of " + path + " failed an earlier fsync", failed);
      }
      if (writing && readOnly) {
        throw new java.nio.channels.NonWritableChannelException();
      }
    }

    @Override
    public Path path() {
      return path;
    }

    @Override
    public long size() throws IOException {
      synchronized (SimulatedDisk.this) {
        check(false);
        return inode.length;
      }
    }

    @Override
    public void write(ByteBuffer source, long position) throws IOException {
      byte[] bytes = new byte[source.remaining()];
      source.get(bytes);
      write(bytes, position);
    }

    @Override
    public void write(MemorySegment source, long position) throws IOException {
      write(source.toArray(ValueLayout.JAVA_BYTE), position);
    }

    private void write(byte[] bytes, long position) throws IOException {
      synchronized (SimulatedDisk.this) {
        check(true);
        if (position < 0) {
          throw new IllegalArgumentException("negative position");
        }
        if (writesFailWithNoSpace) {
          throw new IOException("No space left on device");
        }
        if (failWritesOf != null && failWritesOf.equals(normalize(path))) {
          if (writesBeforeFailing == 0) {
            throw new IOException("No space left on device (simulated, writes of " + path + ")");
          }
          writesBeforeFailing--;
        }
        long end = position + bytes.length;
        long growth = (pagesFor(end) - pagesFor(inode.length)) * PAGE_BYTES;
        if (growth > 0 && usedBytes() + growth > capacityBytes) {
          throw new IOException("No space left on device");
        }
        operations++;
        if (operations == crashAtOperation) {
          int cut = new SplittableRandom(crashSeed ^ 0x5DEECE66DL).nextInt(bytes.length + 1);
          writeBytes(inode, bytes, position, cut);
          crash();
        }
        writeBytes(inode, bytes, position, bytes.length);
      }
    }

    @Override
    public int read(ByteBuffer target, long position) throws IOException {
      synchronized (SimulatedDisk.this) {
        check(false);
        int n = (int) Math.max(0, Math.min(target.remaining(), inode.length - position));
        target.put(inode.data, (int) position, n);
        return n;
      }
    }

    @Override
    public long read(MemorySegment target, long position) throws IOException {
      synchronized (SimulatedDisk.this) {
        check(false);
        long n = Math.max(0, Math.min(target.byteSize(), inode.length - position));
        MemorySegment.copy(inode.data, (int) position, target, ValueLayout.JAVA_BYTE, 0, (int) n);
        return n;
      }
    }

    @Override
    public void force() throws IOException {
      waitWhileForcesHeld();
      synchronized (SimulatedDisk.this) {
        check(false);
        if (failForceArmed && (failForceOf == null || failForceOf.equals(path))) {
          failForceArmed = false;
          operations++;
          resolve(inode, new SplittableRandom(forceFailureSeed), false);
          failed = new IOException("Input/output error (simulated fsync failure of " + path + ")");
          throw failed;
        }
        if (mutationCrashes()) {
          return;
        }
        inode.durable = Arrays.copyOf(inode.data, (int) inode.length);
        inode.durableLength = inode.length;
        inode.dirtyPages.clear();
        forces.merge(path, 1L, Long::sum);
      }
    }

    @Override
    public MemorySegment mapPrivate(long sizeBytes, Arena arena) throws IOException {
      // a private mapping behaves, for its owner, like a copy of the file taken now
      MemorySegment copy = arena.allocate(Math.max(1, sizeBytes), 4096).asSlice(0, sizeBytes);
      long read = read(copy, 0);
      if (read < sizeBytes) {
        throw new java.io.EOFException(
            "cannot map " + sizeBytes + " bytes of " + path + ": the file has " + read);
      }
      return copy;
    }

    @Override
    public void truncate(long sizeBytes) throws IOException {
      synchronized (SimulatedDisk.this) {
        check(true);
        if (sizeBytes >= inode.length) {
          return;
        }
        if (mutationCrashes()) {
          return;
        }
        markSizeChange(inode, sizeBytes, inode.length);
        Arrays.fill(inode.data, (int) sizeBytes, (int) inode.length, (byte) 0);
        inode.length = sizeBytes;
      }
    }

    @Override
    public void preallocate(long sizeBytes) throws IOException {
      synchronized (SimulatedDisk.this) {
        check(true);
        long length = inode.length;
        if (length >= sizeBytes) {
          return;
        }
        write(new byte[(int) (sizeBytes - length)], length);
      }
    }

    @Override
    public void close() {
      synchronized (SimulatedDisk.this) {
        closed = true;
      }
    }
  }
}
