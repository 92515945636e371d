package dev.cairn.pile;

import static dev.cairn.pile.BlockLayout.HEADER_BYTES;
import static dev.cairn.pile.BlockLayout.KIND_LINK;
import static dev.cairn.pile.BlockLayout.WORD;
import static dev.cairn.pile.Pointers.GRANULE_SHIFT;
import static dev.cairn.pile.Pointers.NIL;

import dev.cairn.memory.NativeSegment;
import dev.cairn.pile.participant.LogParticipant;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pile's side of its transactions ({@link PileTransaction} keeps each one's books): their
 * allocations, commit and rollback, and recovery's undo of those that never ended.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Concurrency: a put or a prepared update holds one stripe lock, as any write; a commit holds
 * every stripe lock (in id order) while it checks, applies and logs; a rollback frees in runs,
 * one stripe lock at a time. The set of open transactions is concurrent; one transaction is
 * used by one thread at a time (Transaction's contract).
 *
 * Invariants:
 *   X1 a transaction's allocations are logged as TX_ALLOC records in its WriteContext before
 *      its commit or rollback is; recovery undoes those of a transaction with neither
 *      (PersistentStore, through releaseAll);
 *   X2 a commit allocates nothing: every block it links to was prepared, so it cannot run out
 *      of space half way, and its checks come before any change;
 *   X3 a commit's changes, in every stripe, and its participants' records are one TX_COMMIT
 *      record, logged under every stripe lock;
 *   X4 a rollback never waits for log space: the room was kept as the transaction allocated
 *      (WriteHooks.admitTransaction);
 *   X5 every prepared target is either linked by the commit or freed (rollback, an update
 *      overridden in the same transaction, recovery); Stripe.pendingTargets counts the others.
 *
 * Lifecycle: close rolls back every open transaction first (rollbackAll); one that cannot be
 * rolled back is left to a persistent pile's recovery.
 * }</pre>
 */
final class TransactionCoordinator {

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

  /** The most frees {@link #releaseRun} logs as one record. */
  private static final int RELEASE_RUN = 256;

  private final SegmentTable table;
  private final NativeSegment[] segments; // the table's slots (SegmentTable.slots)
  private final ValueReads reads;
  private final BlockWriter writer;
  private final Stripe[] stripes;
  private final WriteHooks writes;
  private final PersistenceHooks persistence;
  private final Set<PileTransaction> open = ConcurrentHashMap.newKeySet();
  private final AtomicLong nextId = new AtomicLong();

  TransactionCoordinator(
      SegmentTable table,
      ValueReads reads,
      BlockWriter writer,
      Stripe[] stripes,
      WriteHooks writes,
      PersistenceHooks persistence) {
    this.table = table;
    this.segments = table.slots();
    this.reads = reads;
    this.writer = writer;
    this.stripes = stripes;
    this.writes = writes;
    this.persistence = persistence;
  }

  /** {@link Pile#beginTransaction}. */
  Transaction begin() {
    table.checkOpen();
    PileTransaction tx = new PileTransaction(this, reads, nextId.incrementAndGet());
    open.add(tx);
    return tx;
  }

  /** Rolls back every open transaction (close); one that fails is left to recovery. */
  void rollbackAll() {
    for (PileTransaction tx : List.copyOf(open)) {
      try {
        tx.rollback();
      } catch (RuntimeException ignored) {
        // closing anyway: recovery frees what a rollback could not
      }
    }
  }

  /**
   * @throws PileClosedException if the pile is closed
   */
  void checkOpen() {
    table.checkOpen();
  }

  /** Whether writes are logged, so that a commit can be made durable on its own. */
  boolean logging() {
    return writes.logging();
  }

  // =========================================================================================
  // allocations (X1)

  /** A put of {@code tx}: allocated and written now, logged as its allocation. */
  long put(PileTransaction tx, Object value) {
    table.checkOpen();
    long reserved = beforeAllocation(tx, value);
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
  private long beforeAllocation(PileTransaction tx, Object value) {
    long reserved =
        writes.admitTransaction(
            tx.id(), BlockWriter.recordBytesFor(value), allocations(tx) + 1, false);
    writes.transactionAllocates(tx.id());
    return reserved;
  }

  /**
   * Writes an update's new value into a link target block in the pointer's stripe and returns the
   * target's pointer; the pointer's own block is untouched until commit.
   */
  long prepareUpdate(PileTransaction tx, long pointer, Object value) {
    table.checkOpen();
    Scratch scratch = writer.encodeForRewrite(value);
    long reserved = beforeAllocation(tx, value);
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
        throw new PileFullException(
            "memory budget exhausted: the update needs "
                + (granules << GRANULE_SHIFT)
                + " bytes; maxMemoryBytes="
                + table.maxMemoryBytes()
                + " (the transaction is unchanged)");
      }
      long target =
          writer.writeTarget(stripe, address, scratch.kind, scratch.source, scratch.length);
      stripe.pendingTargets++;
      stripe.utilizedBytes += scratch.length; // counted from now on, as a put's value is
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
   * transaction, or recovery of a transaction that never ended). A target already gone is left
   * alone (X5).
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
   * {@link WriteHooks#admitTransaction} for a commit or rollback of {@code tx} (X4). Once the
   * transaction has allocated, its first record pins the log (no checkpoint may truncate past it),
   * so its later writes may use the log space kept in reserve: waiting for checkpoints to free
   * space would be waiting for itself. A test of many writers and checkpoints at once waits on
   * exactly that.
   */
  private long admitEnding(PileTransaction tx, long recordBytes) {
    return writes.admitTransaction(tx.id(), recordBytes, allocations(tx), true);
  }

  /** The blocks {@code tx} holds: its puts and its prepared update targets. */
  private static long allocations(PileTransaction tx) {
    return (long) tx.puts().size() + tx.prepared().size();
  }

  // =========================================================================================
  // commit

  /**
   * Applies a transaction under every stripe lock: checks first, then links updated blocks to their
   * prepared targets and frees deleted ones, logged as one record (X2, X3); then waits as {@code
   * wait} says.
   */
  CompletableFuture<Void> commit(PileTransaction tx, CommitWait wait) {
    table.checkOpen();
    long reserved =
        admitEnding(
            tx,
            Journal.SMALL_RECORD_BYTES
                + (long) Journal.SMALL_RECORD_BYTES * (tx.prepared().size() + tx.deletes().size())
                + (long) (ParticipantRegistry.HEADER_BYTES + LogParticipant.MAX_RECORD_BYTES)
                    * tx.attachments().size());
    List<PileTransaction.Attached> attached = new ArrayList<>(tx.attachments().size());
    List<dev.cairn.pile.participant.Attachment> called = new ArrayList<>();
    long lsn = 0;
    Stripe.lockAll(stripes);
    try {
      table.checkOpen();
      for (long pointer : tx.prepared().keySet()) {
        requireLive(pointer);
      }
      for (long pointer : tx.deletes()) {
        requireLive(pointer);
      }
      // the participants' changes first, then the pile's: one throwing leaves the pile as it was
      for (PileTransaction.Attached a : tx.attachments()) {
        called.add(a.attachment());
        attached.add(
            new PileTransaction.Attached(
                a.participant(),
                a.type(),
                a.attachment(),
                ParticipantRegistry.checked(a.type(), a.attachment().apply(Pile.NULL))));
      }
      for (Map.Entry<Long, Long> update : tx.prepared().entrySet()) {
        linkToPrepared(update.getKey(), update.getValue());
      }
      for (long pointer : tx.deletes()) {
        writer.deleteLocked(pointer);
      }
      lsn = persistence.logCommit(tx.id(), stripes, attached);
    } finally {
      Stripe.unlockAll(stripes);
      writes.release(reserved);
      for (dev.cairn.pile.participant.Attachment a : called) {
        a.logged(); // P5: each one applied (or that threw) is told, before the wait
      }
    }
    open.remove(tx);
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
    int oldLength =
        linked ? writer.lengthAt(oldTarget) : BlockLayout.length(header, memory, offset);
    writer.becomeLink(stripe, segment, offset, header, target, oldTarget);
    stripe.pendingTargets = Math.max(0, stripe.pendingTargets - 1);
    stripe.utilizedBytes -= oldLength; // the target's bytes were counted when prepared
  }

  // =========================================================================================
  // rollback and recovery's undo

  /** Undoes a transaction's allocations; its pending updates and deletes are just dropped. */
  void abort(PileTransaction tx) {
    open.remove(tx);
    if (table.isClosed()) {
      return; // the memory is gone; a persistent pile's recovery frees what was logged
    }
    // the log room for this was kept when the transaction allocated: no waiting for it (X4)
    long reserved = admitEnding(tx, 0);
    try {
      releaseAll(tx.puts(), Journal.TX_PUT);
      LongList targets = new LongList();
      for (long target : tx.prepared().values()) {
        targets.add(target);
      }
      releaseAll(targets, Journal.TX_TARGET);
      writes.transactionEnded(tx.id());
      persistence.logTransactionEnd(tx.id());
    } finally {
      writes.release(reserved);
    }
  }

  /**
   * Frees the puts or prepared targets ({@code kind}) of a transaction that ends without a commit,
   * last first, in runs (see {@link #releaseRun}); any already freed are skipped. Also recovery's
   * undo of a transaction that never ended (X1).
   */
  void releaseAll(LongList blocks, int kind) {
    for (int i = blocks.size() - 1; i >= 0; ) {
      i = releaseRun(blocks, i, kind);
    }
  }

  /**
   * Frees {@code blocks[from]}, {@code blocks[from - 1]}, ... (puts, or prepared targets) while
   * they belong to the stripe of the first, up to {@link #RELEASE_RUN} of them, under one hold of
   * its lock, so that a persistent pile logs one record for the run; returns the index of the first
   * block not freed. Why backwards and in runs: a rollback frees what the transaction allocated,
   * mostly in the order the bump region handed it out, so the last block first rejoins the bump
   * region and writes a header word, where the first block first wrote a free block and relinked a
   * list each time; one record per run saves the record's header and the stripe's counters per
   * free. A rollback of puts of 100 bytes took 184 bytes of log per put.
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
      stripe.unlockAndLog(WriteContext.PLAIN); // not waited for: see abort
    }
    return i;
  }

  /** Frees one allocation of a transaction that ends without a commit. */
  private void releaseUnfinished(int kind, long pointer) {
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
}
