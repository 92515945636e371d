package dev.cairn.pile;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link Transaction} of an {@link OffHeapPile}: what it put, the values it prepared for its
 * updates, and what it will delete. The pile's {@link TransactionCoordinator} does the work; this
 * class keeps the books.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * put      allocates and writes the value at once (a normal block), logged as a TX_ALLOC
 *          record naming the transaction and the pointer.
 * update   writes the new value at once into a link target block in the pointer's stripe,
 *          logged as TX_ALLOC too; the original block is untouched until commit.
 * delete   only remembered.
 * commit   under every stripe lock: checks every updated and deleted pointer, then turns each
 *          updated block into a link to its prepared target and frees the deleted ones; one
 *          TX_COMMIT record holds all of it. Nothing a commit does allocates, so it cannot run
 *          out of space half way.
 * rollback frees the puts and the prepared targets, last first, in runs of one stripe logged as
 *          one record each, then logs TX_END. It never waits for log space: every write kept
 *          room for it (the undo rule, LogAdmission.admitTransaction), and a write that
 *          cannot keep that room within the log throws TransactionTooLargeException at once.
 * crash    recovery frees the allocations of every transaction with TX_ALLOC records but no
 *          TX_COMMIT or TX_END: so none of an unfinished transaction survives (I2, I4). A
 *          read-only open does the same in memory.
 * }</pre>
 */
final class PileTransaction implements Transaction {

  private enum State {
    OPEN,
    COMMITTED,
    ROLLED_BACK
  }

  private final TransactionCoordinator coordinator;
  private final ValueReads reads;
  private final long id;
  private final LongList puts = new LongList();
  private final Map<Long, Long> prepared = new LinkedHashMap<>(); // pointer -> target pointer
  private final Map<Long, Object> preparedValues = new LinkedHashMap<>();
  private final Set<Long> deletes = new LinkedHashSet<>();
  private State state = State.OPEN;

  /** A participant's attachment, applied and logged at commit. */
  record Attached(
      int participant,
      int type,
      dev.cairn.pile.participant.Attachment attachment,
      java.lang.foreign.MemorySegment record) {}

  private final java.util.List<Attached> attachments = new java.util.ArrayList<>();

  private final WriteContext putContext;
  private final WriteContext targetContext;

  PileTransaction(TransactionCoordinator coordinator, ValueReads reads, long id) {
    this.coordinator = coordinator;
    this.reads = reads;
    this.id = id;
    this.putContext = WriteContext.transactionPut(id);
    this.targetContext = WriteContext.transactionTarget(id);
  }

  /** Adds a participant's attachment, applied at commit (see ParticipantLog.attach). */
  void attach(int participant, int type, dev.cairn.pile.participant.Attachment attachment) {
    checkOpen();
    attachments.add(new Attached(participant, type, attachment, null));
  }

  java.util.List<Attached> attachments() {
    return attachments;
  }

  /** How this transaction's puts are logged: allocations undone unless it commits. */
  WriteContext putContext() {
    return putContext;
  }

  /** How this transaction's prepared update targets are logged. */
  WriteContext targetContext() {
    return targetContext;
  }

  long id() {
    return id;
  }

  boolean belongsTo(TransactionCoordinator owner) {
    return coordinator == owner;
  }

  @Override
  public long put(Object value) {
    Objects.requireNonNull(value, "value");
    checkOpen();
    long pointer = coordinator.put(this, value);
    puts.add(pointer);
    return pointer;
  }

  @Override
  public void update(long pointer, Object value) {
    Objects.requireNonNull(value, "value");
    checkOpen();
    if (deletes.contains(pointer)) {
      throw PointerProblem.DELETED_EARLIER_IN_TRANSACTION.exception(pointer);
    }
    long target = coordinator.prepareUpdate(this, pointer, value);
    Long earlier = prepared.put(pointer, target);
    preparedValues.put(pointer, value);
    if (earlier != null) {
      coordinator.releasePrepared(earlier);
    }
  }

  @Override
  public void delete(long pointer) {
    checkOpen();
    if (!deletes.contains(pointer)) {
      reads.sizeOf(pointer); // fails now for a pointer that is already stale
      deletes.add(pointer);
    }
    Long target = prepared.remove(pointer);
    preparedValues.remove(pointer);
    if (target != null) {
      coordinator.releasePrepared(target);
    }
  }

  @Override
  public Object get(long pointer) {
    checkOpen();
    if (deletes.contains(pointer)) {
      throw PointerProblem.DELETED_IN_TRANSACTION.exception(pointer);
    }
    Object value = preparedValues.get(pointer);
    if (value instanceof byte[] bytes) {
      return bytes.clone();
    }
    return value != null ? value : reads.get(pointer);
  }

  @Override
  public void commit() {
    commit(TransactionCoordinator.CommitWait.BLOCK).join();
  }

  @Override
  public void commit(Durability level) {
    checkOpen();
    if (level != Durability.NONE && !coordinator.logging()) {
      throw new IllegalArgumentException(
          "the pile has no log (durability NONE): a commit can"
              + " only be made durable by Pile.checkpoint(); commit with Durability.NONE");
    }
    // SYNC has waited; PERIODIC and NONE return at once by contract ("commitAsync() without the
    // future"): a failed force fails the log for good, which later writes report
    CompletableFuture<Void> unused =
        commit(
            switch (level) {
              case SYNC ->
                  TransactionCoordinator.CommitWait
                      .FORCE; // on stable storage whatever the pile's level
              case PERIODIC -> TransactionCoordinator.CommitWait.FORCE_SOON;
              case NONE -> TransactionCoordinator.CommitWait.NONE;
            });
  }

  @Override
  public CompletableFuture<Void> commitAsync() {
    return commit(TransactionCoordinator.CommitWait.FUTURE);
  }

  private CompletableFuture<Void> commit(TransactionCoordinator.CommitWait wait) {
    checkOpen();
    try {
      CompletableFuture<Void> durable = coordinator.commit(this, wait);
      state = State.COMMITTED;
      return durable;
    } catch (PointerException conflict) {
      rollback();
      throw conflict;
    }
  }

  @Override
  public void rollback() {
    if (state != State.OPEN) {
      return;
    }
    state = State.ROLLED_BACK;
    coordinator.abort(this);
  }

  @Override
  public void close() {
    rollback();
  }

  /**
   * @throws PileClosedException if the pile closed (which rolled back whatever was open), before
   *     any other check: that is what the caller must learn
   * @throws IllegalStateException if this transaction already ended
   */
  private void checkOpen() {
    coordinator.checkOpen();
    if (state != State.OPEN) {
      throw new IllegalStateException(
          "transaction "
              + id
              + " is "
              + state.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
    }
  }

  // for the pile

  LongList puts() {
    return puts;
  }

  Map<Long, Long> prepared() {
    return prepared;
  }

  Set<Long> deletes() {
    return deletes;
  }
}
