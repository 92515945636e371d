package dev.cairn.pile;

import dev.cairn.pile.participant.SlotTable;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * One writer thread of a {@link SlotTable}: random puts, deletes, updates (in place or through a
 * link, with or without the table's record), moves and transactional puts on the thread's own
 * slots, which interleave with the other threads' in every region (neighbouring words, the same
 * pages). Keeps its own {@link SlotModel} and the op in flight; in a child JVM it also prints each
 * op before it starts ({@code W} lines) and once it returned, for the parent.
 *
 * <p>Protocol lines ({@code t} the thread):
 *
 * <pre>
 * t W P r s seq len           about to put value (t, seq, len) into slot (r, s)
 * t W T r s seq len           the same, in a transaction
 * t P r s pointer seq len     it was put at pointer (either kind)
 * t W D r s pointer           about to delete slot (r, s)'s value
 * t D r s pointer             deleted
 * t W U r s pointer seq len   about to update slot (r, s)'s value to value (t, seq, len)
 * t U r s pointer seq len     updated
 * t W M r s r2 s2 pointer     about to move slot (r, s)'s pointer to slot (r2, s2)
 * t M r s r2 s2 pointer       moved
 * </pre>
 */
final class SlotWorker {

  /** Slots each thread uses in each region. */
  static final int SLOTS_PER_THREAD = 48;

  private final int thread;
  private final SlotTable table;
  private final Pile pile;
  private final SplittableRandom random;
  private final Consumer<String> emit; // null in the test's own JVM
  private final SlotModel model;
  private final List<int[]> empty = new ArrayList<>();
  private final List<int[]> filled = new ArrayList<>();
  private volatile SlotModel.Op inFlight;
  private long seq;

  /**
   * @param threads the writers sharing the table: thread {@code thread} uses slots {@code (thread +
   *     threads * i) * spread} of every region, {@code i < SLOTS_PER_THREAD}
   * @param model the thread's model, as the last recovery left it
   */
  SlotWorker(
      int thread,
      int threads,
      SlotTable table,
      Pile pile,
      SlotModel model,
      SplittableRandom random,
      Consumer<String> emit) {
    this.thread = thread;
    this.table = table;
    this.pile = pile;
    this.model = model;
    this.random = random;
    this.emit = emit;
    this.seq = random.nextLong(1L << 40); // values of earlier rounds keep their own numbers
    // spread over the whole region, so that the threads' slots share words and pages
    int spread = Math.max(1, table.slotsPerRegion() / (threads * SLOTS_PER_THREAD));
    for (int region = 0; region < table.regionCount(); region++) {
      for (int i = 0; i < SLOTS_PER_THREAD; i++) {
        int slot = (thread + threads * i) * spread;
        (model.pointer(region, slot) == 0 ? empty : filled).add(new int[] {region, slot});
      }
    }
  }

  /** The op under way, or null: after a crash, what may or may not have happened. */
  SlotModel.Op inFlight() {
    return inFlight;
  }

  SlotModel model() {
    return model;
  }

  /** One random op on the thread's slots, acknowledged in the model once it returned. */
  void step() {
    int choice = random.nextInt(20);
    if (filled.isEmpty() || (choice < 9 && !empty.isEmpty())) {
      int[] at = empty.remove(random.nextInt(empty.size()));
      long s = seq++;
      int length = random.nextInt(8) == 0 ? 1000 + random.nextInt(3000) : random.nextInt(200);
      byte[] value = SlotModel.value(thread, s, length);
      SlotModel.Op op = new SlotModel.Put(at[0], at[1], value);
      boolean inTransaction = choice == 8;
      begin(op, (inTransaction ? "W T " : "W P ") + at[0] + " " + at[1] + " " + s + " " + length);
      long pointer;
      if (inTransaction) {
        try (Transaction tx = pile.beginTransaction()) {
          pointer = table.putInTransaction(tx, at[0], at[1], value);
          tx.commit();
        }
      } else {
        pointer = table.put(at[0], at[1], value);
      }
      done(op, pointer, "P " + at[0] + " " + at[1] + " " + hex(pointer) + " " + s + " " + length);
      filled.add(at);
      return;
    }
    int index = random.nextInt(filled.size());
    int[] at = filled.get(index);
    long pointer = model.pointer(at[0], at[1]);
    if (choice < 13) {
      SlotModel.Op op = new SlotModel.Delete(at[0], at[1], pointer);
      begin(op, "W D " + at[0] + " " + at[1] + " " + hex(pointer));
      table.delete(at[0], at[1]);
      done(op, 0, "D " + at[0] + " " + at[1] + " " + hex(pointer));
      filled.set(index, filled.getLast());
      filled.removeLast();
      empty.add(at);
    } else if (choice < 18 || empty.isEmpty()) {
      long s = seq++;
      int length = random.nextInt(4) == 0 ? 500 + random.nextInt(2000) : random.nextInt(100);
      byte[] value = SlotModel.value(thread, s, length);
      SlotModel.Op op = new SlotModel.Update(at[0], at[1], pointer, value);
      begin(op, "W U " + at[0] + " " + at[1] + " " + hex(pointer) + " " + s + " " + length);
      table.update(at[0], at[1], value, random.nextBoolean());
      done(op, 0, "U " + at[0] + " " + at[1] + " " + hex(pointer) + " " + s + " " + length);
    } else {
      int[] to = empty.remove(random.nextInt(empty.size()));
      SlotModel.Op op = new SlotModel.Move(at[0], at[1], to[0], to[1], pointer);
      String move = at[0] + " " + at[1] + " " + to[0] + " " + to[1] + " " + hex(pointer);
      begin(op, "W M " + move);
      table.move(at[0], at[1], to[0], to[1]);
      done(op, 0, "M " + move);
      filled.set(index, to);
      empty.add(at);
    }
  }

  private void begin(SlotModel.Op op, String line) {
    inFlight = op;
    if (emit != null) {
      emit.accept(thread + " " + line);
    }
  }

  private void done(SlotModel.Op op, long pointer, String line) {
    model.acknowledged(op, pointer);
    inFlight = null;
    if (emit != null) {
      emit.accept(thread + " " + line);
    }
  }

  static String hex(long pointer) {
    return Long.toHexString(pointer);
  }
}
