package dev.cairn.pile;

import static dev.cairn.pile.BlockLayout.HEADER_BYTES;
import static dev.cairn.pile.BlockLayout.KIND_LINK;
import static dev.cairn.pile.BlockLayout.SEGMENT_HEADER_BYTES;
import static dev.cairn.pile.BlockLayout.WORD;
import static dev.cairn.pile.Pointers.GRANULE_SHIFT;
import static dev.cairn.pile.Pointers.NIL;

import dev.cairn.memory.NativeSegment;
import dev.cairn.pile.participant.Attachment;
import dev.cairn.pile.participant.Participants;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The volatile {@link Pile}: values in native segments, gone when the pile is closed.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Structure: a fixed table of up to 16,384 segments, each owned by one of N stripes
 * (Stripe). A pointer names its segment, its block offset and a tag (Pointers); the block's
 * header repeats the tag (BlockLayout).
 *
 * Concurrency:
 *   put     locks the calling thread's stripe (tryLock; on contention the thread moves to
 *           another stripe, as LongAdder cells do), allocates, writes, unlocks.
 *   update,
 *   delete  lock the stripe that owns the pointer's segment; changes that a reader could be
 *           in the middle of run in the segment's write section (NativeSegment seqlock).
 *   get     takes no lock: reads the header, checks the tag, copies the payload, then
 *           validates the segment's write sequence and retries if a writer intervened. A
 *           released segment's arena is closed, so a late reader gets an FFM exception that
 *           becomes StalePointerException, never stray memory.
 *
 * Pointer safety: a block's header must be live, not a link target, carry the pointer's tag,
 * and lie wholly inside its segment. A deleted block's header is stamped free at once. A
 * stale pointer goes undetected only if its address is reused by a block with the same
 * 23-bit tag; tags come from one clock per pile (Stripe.nextTag), so that needs an exact
 * multiple of 2^23 (8,388,608) allocations in the pile between the two.
 *
 * Moves: an update that no longer fits allocates a target block (marked T), writes the value
 * there, and only then turns the original block into a link holding the target's pointer;
 * the allocation comes first, so a full pile leaves the old value intact.
 * }</pre>
 */
final class OffHeapPile implements Pile {

  private final Stripe[] stripes;

  /** Which segment sits at each index, and who owns it. */
  private final SegmentTable table;

  /** The table's slots, read on every put and get (see {@link SegmentTable#slots}). */
  private final NativeSegment[] segments;

  /** The lock-free reads. */
  private final ValueReads reads;

  /** The block writes under stripe locks. */
  private final BlockWriter writer;

  /** The pile-wide source of tags, handed to stripes in chunks (see {@link Stripe#nextTag}). */
  private final TagClock tags;

  /** What the pile's files add besides writes: the store's, or no-ops in a volatile pile. */
  private final PersistenceHooks persistence;

  /** The files of a persistent pile; null for a volatile one. */
  private final PersistentStore store;

  static {
    dev.cairn.pile.participant.Participants.install(new ParticipantAccess());
  }

  /** The participants sharing this pile's log (see {@link ParticipantRegistry}). */
  private final ParticipantRegistry participants;

  /** The named roots (see {@link Pile#root}). */
  private final RootDirectory roots = new RootDirectory();

  /** What a write does besides changing memory: the store's, or no-ops in a volatile pile. */
  private final WriteHooks writes;

  private final java.util.Set<PileTransaction> openTransactions =
      java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final java.util.concurrent.atomic.AtomicLong nextTransactionId =
      new java.util.concurrent.atomic.AtomicLong();

  OffHeapPile(PileOptions options) {
    this(options, ParticipantRegistry.NONE);
  }

  OffHeapPile(PileOptions options, ParticipantRegistry participants) {
    this(options, null, TagClock.randomKey(), TagClock.randomOrigin(), participants);
  }

  OffHeapPile(PileOptions options, PersistentStore store, long tagKey, long tagOrigin,
      ParticipantRegistry participants) {
    this.participants = participants;
    this.store = store;
    this.writes = store != null ? store : WriteHooks.VOLATILE;
    this.persistence = store != null ? new StoreHooks(store) : PersistenceHooks.VOLATILE;
    this.tags = new TagClock(tagKey, tagOrigin, persistence);
    this.table = new SegmentTable(options, persistence);
    this.segments = table.slots();
    this.stripes = new Stripe[options.stripes()];
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new Stripe(i, table, tags);
      stripes[i].journal = persistence.journalFor(stripes[i], table);
    }
    this.reads = new ValueReads(table, tags, options.codecs(), persistence);
    this.writer = new BlockWriter(table, tags, reads, stripes, options.codecs(), writes);
  }

  // =========================================================================================
  // put

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
    return reads.getBytes(pointer, dst, offset);
  }

  @Override
  public String getString(long pointer) {
    Object value = get(pointer);
    if (value instanceof String string) {
      return string;
    }
    throw new ClassCastException(
        "value at " + Pointers.describe(pointer) + " is not a string: " + value.getClass().getName());
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

  @Override
  public int sizeOf(long pointer) {
    return reads.sizeOf(pointer);
  }

  @Override
  public ValueKind kindOf(long pointer) {
    return reads.kindOf(pointer);
  }

  // =========================================================================================
  // update and delete

  // see BlockWriter

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
          reads.requireIntactPages(segment, 0, segment.sizeBytes());
          stripe.forEachBlock(segment, (offset, header) -> {
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
    if (store != null) {
      purgePersistent();
      return;
    }
    lockAll();
    try {
      checkOpen();
      for (Stripe stripe : stripes) {
        stripe.releaseAll();
      }
      table.releaseSpare();
    } finally {
      unlockAll();
    }
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
        objects, links, segmentsHeld, capacity, allocated, utilized, capacity - utilized - free,
        free, largest, availability);
  }

  @Override
  public void verify() {
    checkOpen();
    lockAll();
    try {
      checkOpen();
      reads.checkEveryPage();
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
    for (PileTransaction tx : List.copyOf(openTransactions)) {
      try {
        tx.rollback();
      } catch (RuntimeException ignored) {
        // closing anyway: recovery frees what a rollback could not
      }
    }
    if (store != null) {
      closePersistent();
      return;
    }
    lockAll();
    try {
      if (table.isClosed()) {
        return;
      }
      table.markClosed();
      for (Stripe stripe : stripes) {
        stripe.releaseAll();
      }
      table.releaseSpare();
    } finally {
      unlockAll();
    }
  }

  void lockAll() {
    for (Stripe stripe : stripes) {
      stripe.lock();
    }
  }

  void unlockAll() {
    for (Stripe stripe : stripes) {
      stripe.unlock();
    }
  }

  void checkNotClosed() {
    checkOpen();
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

  ParticipantRegistry participants() {
    return participants;
  }

  /** ParticipantLog.put: a put and the participant's change, in one record. */
  long putWith(Object value, int participant, int type, Attachment attachment) {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(attachment, "attachment");
    checkOpen();
    long reserved = writes.admit(BlockWriter.recordBytesFor(value) + Participants.MAX_ATTACHMENT_BYTES);
    long pointer;
    long lsn;
    try {
      Stripe stripe = writer.writeNew(value, 0);
      pointer = stripe.lastPointer;
      MemorySegment record;
      try {
        record = ParticipantRegistry.checked(type, attachment.apply(pointer));
      } catch (RuntimeException | Error e) {
        try {
          writer.deleteLocked(pointer); // nested: logged with the put, as one operation
        } finally {
          stripe.unlockAndLog(WriteContext.PLAIN);
        }
        throw e;
      }
      lsn = stripe.unlockAndLog(participant, type, record);
    } finally {
      writes.release(reserved);
    }
    writes.awaitDurable(lsn);
    return pointer;
  }

  /** ParticipantLog.delete: a delete and the participant's change, in one record. */
  void deleteWith(long pointer, int participant, int type, Attachment attachment) {
    Objects.requireNonNull(attachment, "attachment");
    checkOpen();
    long reserved =
        writes.admit(Journal.SMALL_RECORD_BYTES + Participants.MAX_ATTACHMENT_BYTES);
    long lsn = 0;
    try {
      Stripe stripe = writer.lockOwner(pointer);
      boolean logged = false;
      try {
        writer.deleteLocked(pointer); // nested: logged below, with the participant's record
        MemorySegment record = ParticipantRegistry.checked(type, attachment.apply(pointer));
        logged = true;
        lsn = stripe.unlockAndLog(participant, type, record);
      } finally {
        if (!logged) {
          stripe.unlockAndLog(WriteContext.PLAIN);
        }
      }
    } finally {
      writes.release(reserved);
    }
    writes.awaitDurable(lsn);
  }

  /**
   * ParticipantLog.append: a change of the participant's own, applied and logged under the
   * calling thread's stripe lock, so that a checkpoint (under every stripe lock) never sees it
   * half done.
   */
  long appendParticipant(int participant, int type, Attachment attachment) {
    checkOpen();
    long reserved =
        writes.admit(ParticipantRegistry.HEADER_BYTES + Participants.MAX_ATTACHMENT_BYTES);
    long lsn;
    try {
      Stripe stripe = writer.homeStripe();
      stripe.lock();
      boolean logged = false;
      try {
        MemorySegment record = ParticipantRegistry.checked(type, attachment.apply(NULL));
        logged = true;
        lsn = stripe.unlockAndLog(participant, type, record);
      } finally {
        if (!logged) {
          stripe.unlock();
        }
      }
    } finally {
      writes.release(reserved);
    }
    return lsn;
  }

  /** Waits for {@code lsn} as the pile's durability says. */
  void awaitDurable(long lsn) {
    writes.awaitDurable(lsn);
  }

  /** The directory itself, for the store's checkpoint, load and replay. */
  RootDirectory rootDirectory() {
    return roots;
  }

  // =========================================================================================
  // transactions (see PileTransaction)

  @Override
  public Transaction beginTransaction() {
    checkOpen();
    PileTransaction tx = new PileTransaction(this, nextTransactionId.incrementAndGet());
    openTransactions.add(tx);
    return tx;
  }

  long putInTransaction(PileTransaction tx, Object value) {
    checkOpen();
    long reserved = beforeTransactionAllocation(tx, value);
    try {
      Stripe stripe = writer.writeNew(value, 0);
      long pointer = stripe.lastPointer;
      stripe.unlockAndLog(tx.putContext()); // no wait: the commit's wait covers this record too
      return pointer;
    } finally {
      writes.release(reserved);
    }
  }

  /** Admits a transaction's next allocation; returns the log bytes reserved for its record. */
  private long beforeTransactionAllocation(PileTransaction tx, Object value) {
    long reserved =
        writes.admitTransaction(tx.id(), BlockWriter.recordBytesFor(value), allocations(tx) + 1, false);
    writes.transactionAllocates(tx.id());
    return reserved;
  }

  /**
   * Writes an update's new value into a link target block in the pointer's stripe and returns
   * the target's pointer; the pointer's own block is untouched until commit.
   */
  long prepareUpdate(PileTransaction tx, long pointer, Object value) {
    checkOpen();
    Scratch scratch = writer.encodeForRewrite(value);
    long reserved = beforeTransactionAllocation(tx, value);
    Stripe stripe;
    try {
      stripe = writer.lockOwner(pointer);
    } catch (RuntimeException e) {
      writes.release(reserved);
      throw e;
    }
    boolean prepared = false;
    try {
      MemorySegment memory = segments[Pointers.segment(pointer)].memory();
      writer.lockedUserHeader(pointer, memory, ValueReads.blockOffset(pointer, memory));
      long granules = BlockLayout.granulesFor(scratch.length);
      long address = stripe.allocate(granules, Stripe.Reach.GROW);
      if (address == NIL) {
        throw new PileFullException("memory budget exhausted: the update needs "
            + (granules << GRANULE_SHIFT) + " bytes; maxMemoryBytes=" + table.maxMemoryBytes()
            + " (the transaction is unchanged)");
      }
      NativeSegment targetSegment = segments[Pointers.segment(address)];
      MemorySegment targetMemory = targetSegment.memory();
      long targetOffset = Pointers.offsetBytes(address);
      int tag = stripe.nextTag();
      BlockWriter.writePayload(targetMemory, targetOffset, scratch.source, scratch.length);
      BlockLayout.writeLive(targetMemory, targetOffset, tags.seal(tag, address), scratch.kind,
          stripe.allocatedGranules, scratch.length, true, 0);
      BlockWriter.touchBlock(stripe, targetSegment, targetOffset, stripe.allocatedGranules, scratch.length);
      stripe.pendingTargets++;
      stripe.utilizedBytes += scratch.length; // counted from now on, as a put's value is
      long target = Pointers.pointer(tag, targetSegment.index(), targetOffset);
      stripe.lastPointer = target;
      prepared = true;
      return target;
    } finally {
      // a failed preparation allocated nothing the transaction holds: logged as plain
      stripe.unlockAndLog(prepared ? tx.targetContext() : WriteContext.PLAIN);
      writes.release(reserved);
    }
  }

  /**
   * Frees a prepared target no link reaches (a rollback, an update overridden in the same
   * transaction, or recovery of a transaction that never ended). A target already gone is
   * left alone.
   */
  void releasePrepared(long target) {
    Stripe stripe;
    try {
      stripe = writer.lockOwner(target);
    } catch (PointerException gone) {
      return;
    }
    try {
      NativeSegment segment = segments[Pointers.segment(target)];
      MemorySegment memory = segment.memory();
      long offset = Pointers.offsetBytes(target);
      if (reads.targetProblem(segment, offset, target) != null) {
        return;
      }
      stripe.utilizedBytes -= writer.lengthAt(target);
      segment.beginWrite();
      try {
        stripe.free(Pointers.addressOf(target));
      } finally {
        segment.endWrite();
      }
      stripe.pendingTargets = Math.max(0, stripe.pendingTargets - 1);
    } finally {
      stripe.unlockAndLog(WriteContext.PLAIN); // not waited for: a commit or rollback follows
    }
  }

  /**
   * Applies a transaction under every stripe lock: checks first, then links updated blocks to
   * their prepared targets and frees deleted ones, logged as one record.
   */
  /** What a committing thread waits for. */
  enum CommitWait {
    /** The pile's own durability: in SYNC, the force. */
    BLOCK,
    /** The force, whatever the pile's durability: {@code commit(Durability.SYNC)}. */
    FORCE,
    /** Nothing; a future completes when the commit is durable. */
    FUTURE,
    /** Nothing; a force is asked for. */
    FORCE_SOON,
    /** Nothing at all: durable with the next force or checkpoint. */
    NONE
  }

  /**
   * {@link WriteHooks#admitTransaction} for a commit or rollback of {@code tx}. Once the transaction has allocated, its first record
   * pins the log (no checkpoint may truncate past it), so its later writes may use the log space
   * kept in reserve: waiting for checkpoints to free space would be waiting for itself.
   * A test of many writers and checkpoints at once waits on exactly that.
   */
  private long admitForTransaction(PileTransaction tx, long recordBytes) {
    return writes.admitTransaction(tx.id(), recordBytes, allocations(tx), true);
  }

  /** The blocks {@code tx} holds: its puts and its prepared update targets. */
  private static long allocations(PileTransaction tx) {
    return tx.puts().size() + tx.prepared().size();
  }

  boolean hasLog() {
    return writes.logging();
  }

  CompletableFuture<Void> commitTransaction(PileTransaction tx,
      CommitWait wait) {
    checkOpen();
    long reserved = admitForTransaction(tx, Journal.SMALL_RECORD_BYTES
        + (long) Journal.SMALL_RECORD_BYTES * (tx.prepared().size() + tx.deletes().size())
        + (long) (ParticipantRegistry.HEADER_BYTES + Participants.MAX_ATTACHMENT_BYTES)
            * tx.attachments().size());
    List<PileTransaction.Attached> attached = new ArrayList<>(tx.attachments().size());
    long lsn = 0;
    lockAll();
    try {
      checkOpen();
      for (long pointer : tx.prepared().keySet()) {
        requireLive(pointer);
      }
      for (long pointer : tx.deletes()) {
        requireLive(pointer);
      }
      // the participants' changes first, then the pile's: one throwing leaves the pile as it was
      for (PileTransaction.Attached a : tx.attachments()) {
        attached.add(new PileTransaction.Attached(a.participant(), a.type(), a.attachment(),
            ParticipantRegistry.checked(a.type(), a.attachment().apply(NULL))));
      }
      for (java.util.Map.Entry<Long, Long> update : tx.prepared().entrySet()) {
        linkToPrepared(update.getKey(), update.getValue());
      }
      for (long pointer : tx.deletes()) {
        writer.deleteLocked(pointer);
      }
      if (writes.logging()) {
        lsn = Journal.appendCommit(store, tx.id(), stripes, attached);
      }
    } finally {
      unlockAll();
      writes.release(reserved);
    }
    openTransactions.remove(tx);
    writes.transactionEnded(tx.id());
    return switch (wait) {
      case BLOCK -> {
        writes.awaitDurable(lsn);
        yield CompletableFuture.completedFuture(null);
      }
      case FORCE -> {
        writes.awaitForced(lsn);
        yield CompletableFuture.completedFuture(null);
      }
      case FUTURE, FORCE_SOON -> writes.durableFuture(lsn);
      case NONE -> CompletableFuture.completedFuture(null);
    };
  }

  private void requireLive(long pointer) {
    MemorySegment memory = reads.segmentOf(pointer).memory();
    writer.lockedUserHeader(pointer, memory, ValueReads.blockOffset(pointer, memory));
  }

  /** Turns the block of {@code pointer} into a link to {@code target}; all locks held. */
  private void linkToPrepared(long pointer, long target) {
    Stripe stripe = table.ownerOf(Pointers.segment(pointer));
    NativeSegment segment = segments[Pointers.segment(pointer)];
    MemorySegment memory = segment.memory();
    long offset = Pointers.offsetBytes(pointer);
    long header = memory.get(WORD, offset);
    boolean linked = BlockLayout.kind(header) == KIND_LINK;
    long oldTarget = linked ? memory.get(WORD, offset + HEADER_BYTES) : NIL;
    int oldLength = linked ? writer.lengthAt(oldTarget) : BlockLayout.length(header, memory, offset);
    writer.becomeLink(stripe, segment, offset, header, target, oldTarget);
    stripe.pendingTargets = Math.max(0, stripe.pendingTargets - 1);
    stripe.utilizedBytes -= oldLength; // the target's bytes were counted when prepared
  }

  /** Undoes a transaction's allocations; its pending updates and deletes are just dropped. */
  void abortTransaction(PileTransaction tx) {
    openTransactions.remove(tx);
    if (table.isClosed()) {
      return; // the memory is gone; a persistent pile's recovery frees what was logged
    }
    // the log room for this was kept when the transaction allocated: no waiting for it
    long reserved = admitForTransaction(tx, 0);
    try {
      releaseAll(tx.puts(), Journal.TX_PUT);
      LongList targets = new LongList();
      for (long target : tx.prepared().values()) {
        targets.add(target);
      }
      releaseAll(targets, Journal.TX_TARGET);
      writes.transactionEnded(tx.id());
      if (writes.logging()) {
        store.appendTransactionEnd(tx.id());
      }
    } finally {
      writes.release(reserved);
    }
  }

  /**
   * Frees the puts or prepared targets ({@code kind}) of a transaction that ends without a
   * commit, last first, in runs (see {@link #releaseRun}); any already freed are skipped.
   */
  void releaseAll(LongList blocks, int kind) {
    for (int i = blocks.size() - 1; i >= 0; ) {
      i = releaseRun(blocks, i, kind);
    }
  }

  /**
   * Frees {@code blocks[from]}, {@code blocks[from - 1]}, ... (puts, or prepared targets) while
   * they belong to the stripe of the first, up to {@link #RELEASE_RUN} of them, under one hold
   * of its lock, so that a persistent pile logs one record for the run; returns the index of
   * the first block not freed. Why backwards and in runs: a rollback frees what the transaction
   * allocated, mostly in the order the bump region handed it out, so the last block first
   * rejoins the bump region and writes a header word, where the first block first wrote a free
   * block and relinked a list each time; one record per run saves the record's header and the
   * stripe's counters per free. A rollback of puts of 100 bytes took 184 bytes of log per put.
   */
  private int releaseRun(LongList blocks, int from, int kind) {
    Stripe stripe;
    try {
      stripe = writer.lockOwner(blocks.get(from));
    } catch (PointerException gone) {
      return from - 1; // its segment was released: the block was freed meanwhile
    }
    int i = from;
    try {
      for (int n = 0; i >= 0 && n < RELEASE_RUN; i--, n++) {
        long block = blocks.get(i);
        int segment = Pointers.segment(block);
        if (n > 0 && (segment >= Pointers.MAX_SEGMENTS || table.ownerOf(segment) != stripe)) {
          break; // another stripe's: a run of its own, never two stripe locks at once
        }
        releaseUnfinished(kind, block);
      }
    } finally {
      stripe.unlockAndLog(WriteContext.PLAIN); // not waited for: see abortTransaction
    }
    return i;
  }

  /** The most frees {@link #releaseRun} logs as one record. */
  private static final int RELEASE_RUN = 256;

  /** Recovery: frees what a transaction that never ended allocated. */
  void releaseUnfinished(int kind, long pointer) {
    if (kind == Journal.TX_TARGET) {
      releasePrepared(pointer);
    } else {
      try {
        writer.deleteLocked(pointer);
      } catch (PointerException alreadyGone) {
        // freed before the crash
      }
    }
  }

  // =========================================================================================
  // persistence (see PersistentStore)

  @Override
  public void scan(ValueVisitor visitor) {
    Objects.requireNonNull(visitor, "visitor");
    checkOpen();
    new PileScanner(table, tags, reads, visitor).run(stripes);
  }

  @Override
  public CompletableFuture<Void> prefetch() {
    checkOpen();
    if (store == null) {
      return CompletableFuture.completedFuture(null);
    }
    // in the order scan() and forEach() walk them, stripe by stripe, so that a scan started
    // with the prefetch finds the files it reaches already read, rather than overtaking it
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
    return store.prefetch(indexes, table::isClosed);
  }

  @Override
  public void checkpoint() {
    checkOpen();
    if (store != null) {
      store.checkpoint(false);
    }
  }

  /** The files behind this pile, or null for a volatile pile. */
  PersistentStore store() {
    return store;
  }

  private void purgePersistent() {
    long reserved = writes.admit(Journal.SMALL_RECORD_BYTES);
    long lsn = 0;
    lockAll();
    try {
      checkOpen();
      for (Stripe stripe : stripes) {
        for (NativeSegment segment : List.copyOf(stripe.segments)) {
          table.retire(segment, stripe);
        }
        stripe.clearForRestore();
        stripe.journal.discard(); // one purge record stands for all of it
      }
      if (store.logging()) {
        lsn = store.appendPurge();
      }
    } finally {
      unlockAll();
      writes.release(reserved);
    }
    writes.awaitDurable(lsn);
  }

  private void closePersistent() {
    lockAll();
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
      store.closeCleanly();
    } finally {
      lockAll();
      try {
        releaseAllMemory();
      } finally {
        unlockAll();
      }
      store.closeFiles();
    }
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
   * The state a checkpoint writes, captured under every stripe lock and the table lock (a
   * copy of counters and heads: microseconds), with the segments retired so far.
   */
  MetaImage snapshotForCheckpoint(long checkpointLsn) {
    lockAll();
    try {
      // under every stripe lock, no segment comes or goes: the table and the retired list
      // are taken at one instant
      List<NativeSegment> live = new ArrayList<>();
      List<Stripe> liveOwners = new ArrayList<>();
      table.liveSegments(live, liveOwners);
      MetaImage image = MetaImage.capture(stripes, live.toArray(NativeSegment[]::new),
          liveOwners.toArray(Stripe[]::new), table.segmentBytes(), checkpointLsn,
          persistence.takeRetired(), RootDirectory.encode(roots.copy()),
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
