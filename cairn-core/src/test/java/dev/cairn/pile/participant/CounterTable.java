package dev.cairn.pile.participant;

import dev.cairn.pile.Pile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A small durable structure outside {@code dev.cairn.pile}, the proof of the participant contract:
 * named counters kept in memory, changed atomically with the pile's values (each item put or
 * deleted through {@link #add} and {@link #remove} moves its counter in the same log record),
 * logged as absolute values (P2), checkpointed as one state, found again at open. After any crash,
 * a counter equals the number of its items the pile holds.
 */
public final class CounterTable implements LogParticipant {

  /** The record type: Value:u64, NameLength:u16, Name:utf8. */
  static final int SET = 1;

  private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED;
  private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED;

  private final int id;
  private final Map<String, Long> counters = new HashMap<>();
  // held from a change until its record is logged: see Change
  private final ReentrantLock order = new ReentrantLock();
  private volatile ParticipantLog log;
  private int replayed;
  private long openedAtLsn = -1;

  public CounterTable(int id) {
    this.id = id;
  }

  /** Binds the table to the pile it was registered with. */
  public CounterTable attachTo(Pile pile) {
    log = Participants.log(pile, this);
    return this;
  }

  /** Puts {@code item} as an item of {@code counter}: the put and the count, one record. */
  public long add(String counter, byte[] item) {
    return log.put(item, SET, new Change(counter, +1, false));
  }

  /**
   * {@link #add}, written as bytes the table composes, through {@link
   * ParticipantLog#putWithoutWaiting}: returns once logged, durable once a later waited write is.
   */
  public long addWithoutWaiting(String counter, byte[] item) {
    return log.putWithoutWaiting(SlotTable.bytesOf(item), SET, new Change(counter, +1, false));
  }

  /** {@link #add} of an item the caller composes (and may mark: {@link PayloadWriter#mark}). */
  public long add(String counter, PayloadWriter item) {
    return log.put(item, SET, new Change(counter, 0, false));
  }

  /** Rewrites item {@code pointer} of {@code counter} with {@code item}; its count stays. */
  public void rewrite(String counter, long pointer, PayloadWriter item) {
    log.update(pointer, item, SET, new Change(counter, 0, false));
  }

  /** Deletes item {@code pointer} of {@code counter}. */
  public void remove(String counter, long pointer) {
    log.delete(pointer, SET, new Change(counter, -1, false));
  }

  /** Sets {@code counter} to {@code value}, a change with no pile write; durable on return. */
  public void set(String counter, long value) {
    long lsn = log.append(SET, new Change(counter, value, true));
    log.awaitDurable(lsn);
  }

  /** In a transaction: the counter moves when it commits. */
  public void addInTransaction(dev.cairn.pile.Transaction tx, String counter, byte[] item) {
    tx.put(item);
    log.attach(tx, SET, new Change(counter, +1, false));
  }

  /**
   * A counter's change and its record. Records hold absolute values (P2), so the records of one
   * counter must reach the log in the order of the changes they carry (P5): {@link #order} is held
   * from the change until the record is in the log, and released in {@link #logged}. Without it,
   * two writes on different stripes, one adding and one removing an item of the same counter, may
   * log in the other order, and replay would end on the older value.
   */
  private final class Change implements Attachment {
    private final String counter;
    private final long operand;
    private final boolean absolute;

    Change(String counter, long operand, boolean absolute) {
      this.counter = counter;
      this.operand = operand;
      this.absolute = absolute;
    }

    @Override
    public MemorySegment apply(long pointer) {
      order.lock();
      synchronized (CounterTable.this) {
        long value = absolute ? operand : counters.getOrDefault(counter, 0L) + operand;
        counters.put(counter, value);
        return record(counter, value);
      }
    }

    @Override
    public void logged() {
      if (order.isHeldByCurrentThread()) {
        order.unlock();
      }
    }
  }

  public synchronized long get(String counter) {
    return counters.getOrDefault(counter, 0L);
  }

  public synchronized Map<String, Long> snapshot() {
    return new TreeMap<>(counters);
  }

  public synchronized int replayed() {
    return replayed;
  }

  public synchronized long openedAtLsn() {
    return openedAtLsn;
  }

  private static MemorySegment record(String counter, long value) {
    byte[] name = counter.getBytes(StandardCharsets.UTF_8);
    MemorySegment out = MemorySegment.ofArray(new byte[10 + name.length]);
    out.set(U64, 0, value);
    out.set(U16, 8, (short) name.length);
    MemorySegment.copy(MemorySegment.ofArray(name), 0, out, 10, name.length);
    return out;
  }

  private void apply(MemorySegment record) {
    int length = Short.toUnsignedInt(record.get(U16, 8));
    String name =
        new String(
            record.asSlice(10, length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    long value = record.get(U64, 0);
    if (value == 0) {
      counters.remove(name);
    } else {
      counters.put(name, value);
    }
  }

  @Override
  public int id() {
    return id;
  }

  @Override
  public synchronized void open(ParticipantLog log, byte[] state, long checkpointLsn) {
    this.log = log; // the same object attachTo finds through Participants.log
    counters.clear();
    MemorySegment in = MemorySegment.ofArray(state);
    long at = 0;
    while (at < state.length) {
      int length = Short.toUnsignedInt(in.get(U16, at + 8));
      apply(in.asSlice(at, 10 + length));
      at += 10 + length;
    }
    openedAtLsn = checkpointLsn;
  }

  @Override
  public synchronized void replay(long lsn, int type, MemorySegment payload) {
    if (type != SET) {
      throw new IllegalStateException("unknown counter record type " + type);
    }
    apply(payload);
    replayed++;
  }

  @Override
  public synchronized byte[] checkpoint(long checkpointLsn) {
    int bytes = 0;
    for (String name : counters.keySet()) {
      bytes += 10 + name.getBytes(StandardCharsets.UTF_8).length;
    }
    MemorySegment out = MemorySegment.ofArray(new byte[bytes]);
    long at = 0;
    for (Map.Entry<String, Long> counter : new TreeMap<>(counters).entrySet()) {
      MemorySegment one = record(counter.getKey(), counter.getValue());
      MemorySegment.copy(one, 0, out, at, one.byteSize());
      at += one.byteSize();
    }
    return out.toArray(ValueLayout.JAVA_BYTE);
  }

  @Override
  public String toString() {
    return "CounterTable(" + id + ")";
  }
}
