package dev.cairn.pile;

import static dev.cairn.pile.BlockLayout.SEGMENT_HEADER_BYTES;

import dev.cairn.codec.CodecRegistry;
import dev.cairn.memory.NativeSegment;
import dev.cairn.pile.participant.InPlaceReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link Pile}: values in native segments, gone when a volatile pile is closed; a persistent
 * pile's also in its files ({@link PersistentStore}).
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Structure: a fixed table of up to 16,384 segments (SegmentTable), each owned by one of N
 * stripes (Stripe). A pointer names its segment, its block offset and a tag (Pointers); the
 * block's header repeats the tag, sealed with the pile's key (BlockLayout, TagClock).
 *
 * This class is the API, and the order of each operation's steps; the mechanisms are its
 * parts, which depend on the table and the clock, never on the pile:
 *   SegmentTable           the segment slots, their owners, the spare, the memory budget
 *   TagClock               the tags handed to stripes, the sealing key
 *   ValueReads             the lock-free optimistic reads, and every pointer check
 *   BlockWriter            allocation, and block writes under the owning stripe's lock
 *   TransactionCoordinator transactions' allocations, commit and rollback
 *   ParticipantWrites      participants' changes logged with a put, update or delete
 *   Regions                participants' blocks written in place (region, written)
 *
 * A write: admitted (WriteHooks.admit: a persistent pile reserves log room), made under one
 * stripe lock (BlockWriter), logged as the lock is released (Stripe.unlockAndLog), then
 * waited for as the durability says (WriteHooks.awaitDurable), after the lock is released so
 * that writers share a force.
 *
 * Volatile or persistent: the two differ only through two interfaces, WriteHooks on the write
 * path and PersistenceHooks elsewhere (segments born and retired, tag reservations, the purge,
 * commit and rollback records, checkpoint, prefetch, close), each with a no-op for the volatile
 * pile. The store itself is kept only for the package's tools (store(), and the checkpoint's
 * snapshot, which only the store asks for).
 *
 * Concurrency: see BlockWriter (put, update, delete), ValueReads (get) and
 * TransactionCoordinator (commit). A thread holds one stripe lock at a time, except under
 * lockAll (a commit, a purge, verify, a checkpoint's snapshot, close), which takes them all in
 * id order.
 *
 * Lifecycle: close rolls back the open transactions, marks the pile closed under every stripe
 * lock (after which every operation throws PileClosedException), runs the hooks' closing step
 * (a persistent pile's last checkpoint) with no lock held, then releases every segment under
 * the locks again. A read still in a released segment fails with PileClosedException, never
 * stray memory (ValueReads R4).
 *
 * Pointer safety: a block's header must be live, not a link target, carry the pointer's tag,
 * and lie wholly inside its segment (ValueReads R3). A deleted block's header is stamped free
 * at once. A stale pointer goes undetected only if its address is reused by a block with the
 * same 23-bit tag; tags come from one clock per pile, so that needs an exact multiple of 2^23
 * (8,388,608) allocations in the pile between the two.
 *
 * Start-up: a restart's time to its first read is mostly a new JVM loading and linking the
 * classes an open runs, in its interpreter. So the code an open and a first read run (here,
 * in durability and in the codec registry's builder) makes no lambda and no method reference:
 * the JVM links each on its first use, one to three milliseconds apiece in a cold JVM on a
 * 2-core machine, against about half a millisecond for a small named class. Nor does it list
 * directories with streams, ask ProcessHandle for the pid, or make a StackWalker before it
 * needs one; each of those initializes a part of the JDK the open needs for nothing else
 * (docs/BENCHMARKS.md, "Reopen and restart").
 * }</pre>
 */
final class OffHeapPile implements Pile {

  private final Stripe[] stripes;

  /** Which segment sits at each index, and who owns it. */
  private final SegmentTable table;

  /** The pile-wide source of tags, handed to stripes in chunks (see {@link Stripe#nextTag}). */
  private final TagClock tags;

  /** The lock-free reads. */
  private final ValueReads reads;

  /** The segment table's slots and the tag clock's key, for the reads' fast paths. */
  private final NativeSegment[] slots;

  private final long tagKey;

  /** The block writes under stripe locks. */
  private final BlockWriter writer;

  /** Transactions' allocations, commits and rollbacks. */
  private final TransactionCoordinator transactions;

  /** What a write does besides changing memory: the store's, or no-ops in a volatile pile. */
  private final WriteHooks writes;

  /** What the pile's files add besides writes: the store's, or no-ops in a volatile pile. */
  private final PersistenceHooks persistence;

  /** The files of a persistent pile; null for a volatile one (see {@link #store()}). */
  private final PersistentStore store;

  /** The participants sharing this pile's log (see {@link ParticipantRegistry}). */
  private final ParticipantRegistry participants;

  /** The participants' writes beside the pile's own (see {@link ParticipantWrites}). */
  private final ParticipantWrites participantWrites;

  /** The participants' regions, values they write in place (see {@link Regions}). */
  private final Regions regions;

  /** The codecs values are encoded with: the options', with a persistent pile's catalog. */
  private final CodecRegistry codecs;

  /** The named roots (see {@link Pile#root}). */
  private final RootDirectory roots = new RootDirectory();

  OffHeapPile(PileOptions options) {
    this(options, ParticipantRegistry.NONE);
  }

  OffHeapPile(PileOptions options, ParticipantRegistry participants) {
    this(
        options,
        WriteHooks.VOLATILE,
        PersistenceHooks.VOLATILE,
        null,
        TagClock.randomKey(),
        TagClock.randomOrigin(),
        participants);
  }

  /** A persistent pile, made by {@link PersistentStore#open}: its hooks are the store's. */
  OffHeapPile(
      PileOptions options,
      PersistentStore store,
      long tagKey,
      long tagOrigin,
      ParticipantRegistry participants) {
    this(options, store, new StoreHooks(store), store, tagKey, tagOrigin, participants);
  }

  private OffHeapPile(
      PileOptions options,
      WriteHooks writes,
      PersistenceHooks persistence,
      PersistentStore store,
      long tagKey,
      long tagOrigin,
      ParticipantRegistry participants) {
    this.participants = participants;
    this.store = store;
    this.writes = writes;
    this.persistence = persistence;
    this.tags = new TagClock(tagKey, tagOrigin, persistence);
    this.table = new SegmentTable(options, persistence);
    this.stripes = new Stripe[options.stripes()];
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new Stripe(i, table, tags);
      stripes[i].journal = persistence.journalFor(stripes[i], table);
    }
    this.reads = new ValueReads(table, tags, options.codecs(), persistence);
    this.slots = table.slots();
    this.tagKey = tags.key();
    this.writer = new BlockWriter(table, tags, reads, stripes, options.codecs(), writes);
    this.transactions =
        new TransactionCoordinator(table, reads, writer, stripes, writes, persistence);
    this.participantWrites = new ParticipantWrites(table, writer, writes);
    this.regions = new Regions(table, reads, writer, writes, store != null);
    this.codecs = options.codecs();
  }

  // =========================================================================================
  // put (see BlockWriter)

  @Override
  public long put(Object value) {
    return put(value, 0);
  }

  @Override
  public long put(Object value, int extraCapacityBytes) {
    Objects.requireNonNull(value, "value");
    if (extraCapacityBytes < 0) {
      throw new IllegalArgumentException(
          "extraCapacityBytes must not be negative: " + extraCapacityBytes);
    }
    checkOpen();
    long reserved = writes.admit(BlockWriter.recordBytesFor(value));
    long pointer;
    long lsn;
    try {
      Stripe stripe = writer.writeNew(value, extraCapacityBytes);
      pointer = stripe.lastPointer;
      lsn = stripe.unlockAndLog(WriteContext.PLAIN);
    } finally {
      writes.release(reserved);
    }
    writes.awaitDurable(lsn); // after the stripe's lock is released, so writers share the force
    return pointer;
  }

  // =========================================================================================
  // get (see ValueReads)

  @Override
  public Object get(long pointer) {
    return reads.get(pointer);
  }

  @Override
  public <T> T get(long pointer, Class<T> type) {
    Objects.requireNonNull(type, "type");
    return type.cast(get(pointer));
  }

  @Override
  public byte[] getBytes(long pointer) {
    return reads.getBytes(pointer);
  }

  @Override
  public int getBytes(long pointer, byte[] dst, int offset) {
    Objects.checkIndex(offset, dst.length + 1);
    int length = ValueReads.getBytesPlain(slots, tagKey, pointer, dst, offset);
    return length >= 0 ? length : reads.getBytesGeneral(pointer, dst, offset);
  }

  @Override
  public String getString(long pointer) {
    Object value = get(pointer);
    if (value instanceof String string) {
      return string;
    }
    throw new ClassCastException(
        "value at "
            + Pointers.describe(pointer)
            + " is not a string: "
            + value.getClass().getName());
  }

  @Override
  public int read(long pointer, ByteBuffer dst) {
    if (dst.isReadOnly()) {
      throw new java.nio.ReadOnlyBufferException();
    }
    return reads.read(pointer, dst);
  }

  @Override
  public long transferTo(long pointer, WritableByteChannel channel) throws IOException {
    Objects.requireNonNull(channel, "channel");
    return reads.transferTo(pointer, channel);
  }

  @Override
  public <R> R read(long pointer, ValueReader<R> reader) {
    Objects.requireNonNull(reader, "reader");
    return reads.read(pointer, reader);
  }

  /** {@link dev.cairn.pile.participant.ParticipantLog#read}. */
  <R> R readInPlace(long pointer, InPlaceReader<R> reader) {
    return reads.read(pointer, reader);
  }

  /** {@link dev.cairn.pile.participant.ParticipantLog#prefetch}. */
  long prefetch(long pointer) {
    return reads.prefetch(pointer);
  }

  @Override
  public int sizeOf(long pointer) {
    return reads.sizeOf(pointer);
  }

  @Override
  public ValueKind kindOf(long pointer) {
    return reads.kindOf(pointer);
  }

  // =========================================================================================
  // update and delete (see BlockWriter)

  @Override
  public void delete(long pointer) {
    checkOpen();
    long reserved = writes.admit(Journal.SMALL_RECORD_BYTES);
    long lsn;
    try {
      lsn = writer.deleteLocked(pointer);
    } finally {
      writes.release(reserved);
    }
    writes.awaitDurable(lsn);
  }

  @Override
  public void update(long pointer, Object value) {
    Objects.requireNonNull(value, "value");
    checkOpen();
    long reserved = writes.admit(BlockWriter.recordBytesFor(value));
    long lsn;
    try {
      lsn = writer.updateLocked(pointer, value);
    } finally {
      writes.release(reserved);
    }
    writes.awaitDurable(lsn);
  }

  // =========================================================================================
  // enumeration, purge, stats, verify, close

  @Override
  public void forEach(EntryVisitor visitor) {
    Objects.requireNonNull(visitor, "visitor");
    checkOpen();
    LongList pointers = new LongList();
    for (Stripe stripe : stripes) {
      pointers.clear();
      stripe.lock();
      try {
        checkOpen();
        for (NativeSegment segment : stripe.segments) {
          reads.pages().requireIntactPages(segment, 0, segment.sizeBytes());
          stripe.forEachBlock(
              segment,
              (offset, header) -> {
                if (!BlockLayout.isFree(header) && !BlockLayout.isTarget(header)) {
                  long address = Pointers.address(segment.index(), offset);
                  int tag = tags.seal(BlockLayout.tag(header), address); // sealing twice unseals
                  pointers.add(Pointers.pointer(tag, segment.index(), offset));
                }
              });
        }
      } finally {
        stripe.unlock();
      }
      // visit outside the lock, so the visitor may use the pile
      for (int i = 0; i < pointers.size(); i++) {
        long pointer = pointers.get(i);
        int size;
        ValueKind kind;
        try {
          size = sizeOf(pointer);
          kind = kindOf(pointer);
        } catch (PointerException deletedMeanwhile) {
          continue;
        }
        visitor.visit(pointer, kind, size);
      }
    }
  }

  @Override
  public void purge() {
    checkOpen();
    long reserved = writes.admit(Journal.SMALL_RECORD_BYTES);
    long lsn;
    lockAll();
    try {
      checkOpen();
      for (Stripe stripe : stripes) {
        stripe.releaseAll();
      }
      table.releaseSpare(); // a volatile pile kept the first segment retired above
      lsn = persistence.logPurge();
    } finally {
      unlockAll();
      writes.release(reserved);
    }
    writes.awaitDurable(lsn);
  }

  @Override
  public DurabilityStats durabilityStats() {
    checkOpen();
    return persistence.durabilityStats();
  }

  @Override
  public PileStats stats() {
    checkOpen();
    long objects = 0, links = 0, allocated = 0, utilized = 0, capacity = 0, free = 0;
    long pieces = 0, largest = 0;
    int segmentsHeld = 0;
    for (Stripe stripe : stripes) {
      stripe.lock();
      try {
        objects += stripe.objectCount;
        links += stripe.linkCount;
        allocated += stripe.allocatedBytes;
        utilized += stripe.utilizedBytes;
        capacity += stripe.capacityBytes();
        segmentsHeld += stripe.segments.size();
        long bump = stripe.bumpFreeBytes();
        free += stripe.listedFreeBytes + bump;
        pieces += stripe.listedPieceBytes + (bump >= PileStats.AVAILABILITY_PIECE_BYTES ? bump : 0);
        largest = Math.max(largest, stripe.largestFreeBlockBytes());
      } finally {
        stripe.unlock();
      }
    }
    long spareBytes = table.spareBytes();
    if (spareBytes > 0) { // held from the OS, wholly free
      long usable = spareBytes - SEGMENT_HEADER_BYTES;
      segmentsHeld++;
      capacity += spareBytes;
      free += usable;
      pieces += usable;
      largest = Math.max(largest, usable);
    }
    double availability = free == 0 ? 1.0 : (double) pieces / free;
    return new PileStats(
        objects,
        links,
        segmentsHeld,
        capacity,
        allocated,
        utilized,
        capacity - utilized - free,
        free,
        largest,
        availability);
  }

  @Override
  public void verify() {
    checkOpen();
    lockAll();
    try {
      checkOpen();
      reads.pages().checkEveryPage();
      for (Stripe stripe : stripes) {
        new PileVerifier(table, tags, stripe).verify();
      }
    } finally {
      unlockAll();
    }
  }

  @Override
  public void close() {
    if (table.isClosed()) {
      return;
    }
    transactions.rollbackAll();
    lockAll(); // no write runs while the pile is marked closed, and none starts after
    boolean already;
    try {
      already = table.isClosed();
      table.markClosed();
    } finally {
      unlockAll();
    }
    if (already) {
      return;
    }
    try {
      persistence.closing();
    } finally {
      lockAll();
      try {
        releaseAllMemory();
      } finally {
        unlockAll();
      }
      persistence.closed();
    }
  }

  void lockAll() {
    Stripe.lockAll(stripes);
  }

  void unlockAll() {
    Stripe.unlockAll(stripes);
  }

  private void checkOpen() {
    table.checkOpen();
  }

  /** The pile's tag clock (for the store's recovery, and tests). */
  TagClock tagClock() {
    return tags;
  }

  // =========================================================================================
  // named roots (see RootDirectory)

  @Override
  public long root(String name) {
    Objects.requireNonNull(name, "name");
    checkOpen();
    return roots.get(name);
  }

  @Override
  public void setRoot(String name, long pointer) {
    Objects.requireNonNull(name, "name");
    byte[] nameBytes = RootDirectory.checkName(name);
    checkOpen();
    if (pointer != NULL) {
      sizeOf(pointer); // a root names a live value: a stale or foreign pointer fails here
    }
    long reserved = writes.admit(Journal.SMALL_RECORD_BYTES);
    long lsn;
    try {
      synchronized (roots) { // R1: applied, then logged, in one order
        roots.applyLocked(name, pointer);
        lsn = writes.appendRecord(Journal.TYPE_ROOT, RootDirectory.record(nameBytes, pointer));
      }
    } finally {
      writes.release(reserved);
    }
    writes.awaitDurable(lsn);
  }

  @Override
  public java.util.Map<String, Long> roots() {
    checkOpen();
    return java.util.Collections.unmodifiableMap(roots.copy());
  }

  // =========================================================================================
  // participants (see dev.cairn.pile.participant)

  /**
   * Live values in all stripes, for the open's check of participants (PersistentStore): the counts
   * alone, since {@link #stats} also walks free blocks in segments the replay may not have mapped
   * yet.
   */
  long objectCount() {
    long objects = 0;
    for (Stripe stripe : stripes) {
      stripe.lock();
      try {
        objects += stripe.objectCount;
      } finally {
        stripe.unlock();
      }
    }
    return objects;
  }

  ParticipantRegistry participants() {
    return participants;
  }

  /** The participants' writes: a pile write and a participant's change as one record. */
  ParticipantWrites participantWrites() {
    return participantWrites;
  }

  /** Waits for {@code lsn} as the pile's durability says. */
  void awaitDurable(long lsn) {
    writes.awaitDurable(lsn);
  }

  /** The participants' regions (ParticipantLog.region, written). */
  Regions regions() {
    return regions;
  }

  /** The codecs the pile encodes values with (ParticipantLog.codecs). */
  CodecRegistry codecs() {
    return codecs;
  }

  /** ParticipantLog.allocatedBytes. */
  long allocatedBytes(int payloadBytes) {
    return writer.allocatedBytesFor(payloadBytes);
  }

  /**
   * Takes and releases every stripe's lock in turn, so that every write under way when this was
   * called, an attachment's region write among them, has logged its record when it returns
   * (SegmentWriter SW2). Holds one lock at a time.
   */
  void awaitAttachedWrites() {
    for (Stripe stripe : stripes) {
      stripe.lock();
      stripe.unlock();
    }
  }

  /** The directory itself, for the store's checkpoint, load and replay. */
  RootDirectory rootDirectory() {
    return roots;
  }

  // =========================================================================================
  // transactions (see TransactionCoordinator)

  @Override
  public Transaction beginTransaction() {
    return transactions.begin();
  }

  /** The transactions' side of the pile (for the store's recovery, and participants). */
  TransactionCoordinator transactions() {
    return transactions;
  }

  // =========================================================================================
  // scan, and what the files add (see PersistenceHooks, PersistentStore)

  @Override
  public void scan(ValueVisitor visitor) {
    Objects.requireNonNull(visitor, "visitor");
    checkOpen();
    new PileScanner(table, tags, reads, visitor).run(stripes);
  }

  @Override
  public CompletableFuture<Void> prefetch() {
    checkOpen();
    return persistence.prefetch(this::segmentsWithFiles, table::isClosed);
  }

  /**
   * The indexes of the segments mapped from files, in the order scan() and forEach() walk them,
   * stripe by stripe, so that a scan started with a prefetch finds the files it reaches already
   * read, rather than overtaking it.
   */
  private List<Integer> segmentsWithFiles() {
    List<Integer> indexes = new ArrayList<>();
    for (Stripe stripe : stripes) {
      stripe.lock();
      try {
        checkOpen();
        for (NativeSegment segment : stripe.segments) {
          if (segment.hasFile()) {
            indexes.add(segment.index());
          }
        }
      } finally {
        stripe.unlock();
      }
    }
    return indexes;
  }

  @Override
  public void checkpoint() {
    checkOpen();
    persistence.checkpoint();
  }

  /** The files behind this pile, or null for a volatile pile. */
  PersistentStore store() {
    return store;
  }

  /** Releases every segment, live or retired, without logging anything (close, failed open). */
  void releaseAllMemory() {
    for (Stripe stripe : stripes) {
      for (NativeSegment segment : stripe.segments) {
        segment.release();
      }
      stripe.clearForRestore();
    }
    for (NativeSegment segment : persistence.takeRetired()) {
      segment.release();
    }
    table.releaseAll();
  }

  int stripeCount() {
    return stripes.length;
  }

  Stripe stripe(int id) {
    return Stripe.byId(stripes, id);
  }

  /** The stripes, in id order (for the store's recovery). */
  Stripe[] stripes() {
    return stripes;
  }

  /** The segment table (for the store's recovery and checkpoints, and tests). */
  SegmentTable segmentTable() {
    return table;
  }

  /**
   * The state a checkpoint writes, captured under every stripe lock (a copy of counters and heads:
   * microseconds), with the segments retired so far. Only the store calls it.
   */
  MetaImage snapshotForCheckpoint(long checkpointLsn) {
    lockAll();
    try {
      // under every stripe lock, no segment comes or goes: the table and the retired list
      // are taken at one instant
      List<NativeSegment> live = new ArrayList<>();
      List<Stripe> liveOwners = new ArrayList<>();
      table.liveSegments(live, liveOwners);
      MetaImage image =
          MetaImage.capture(
              stripes,
              live.toArray(NativeSegment[]::new),
              liveOwners.toArray(Stripe[]::new),
              table.segmentBytes(),
              checkpointLsn,
              persistence.takeRetired(),
              RootDirectory.encode(roots.copy()),
              participants.checkpoint(checkpointLsn));
      image.logEndAtCapture(store.logEndLsn());
      for (Stripe stripe : stripes) {
        // replay may start at this image: each stripe's next record must not lean on records
        // before it, so it carries every state field
        stripe.journal.forgetLoggedState();
      }
      return image;
    } finally {
      unlockAll();
    }
  }
}
