package dev.cairn.pile;

import dev.cairn.pile.participant.Participants;
import dev.cairn.pile.participant.SlotTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The child JVM of {@link SlotKillNineTest}: a {@link SlotTable} participant over a {@link
 * Durability#SYNC} pile, its slots changed from several threads ({@link SlotWorker}, which prints
 * the protocol) until the parent kills it.
 *
 * <p>Arguments: {@code <directory> <seed> <threads>}. The table gets its {@link #REGIONS} regions
 * at the first run, before {@code READY}.
 */
public final class SlotWorkload {

  static final int PARTICIPANT = 12;
  static final int SLOTS = 2048;
  static final int REGIONS = 2;

  static PileOptions options() {
    return PileOptions.builder()
        .segmentBytes(1 << 20)
        .stripes(4)
        .durability(Durability.SYNC)
        .logFileBytes(1 << 20)
        .logFileCount(4)
        .build();
  }

  private SlotWorkload() {} // a child JVM's main class: never instantiated

  public static void main(String[] args) throws IOException {
    Path directory = Path.of(args[0]);
    SplittableRandom random = new SplittableRandom(Long.parseLong(args[1]));
    int threads = Integer.parseInt(args[2]);
    CrashWorkload.haltWhenParentGoesAway();
    SlotTable table = new SlotTable(PARTICIPANT, SLOTS);
    Pile pile = Participants.open(directory, options(), table); // never closed: SIGKILL ends it
    while (table.regionCount() < REGIONS) {
      table.addRegion();
    }
    CrashWorkload.emit("READY");
    for (int t = 0; t < threads; t++) {
      SlotModel model = new SlotModel(SLOTS); // what the table holds: pointers, not values
      for (int region = 0; region < REGIONS; region++) {
        for (int slot = 0; slot < SLOTS; slot++) {
          long pointer = table.get(region, slot);
          if (pointer != 0) {
            model.adopt(region, slot, pointer);
          }
        }
      }
      SlotWorker worker =
          new SlotWorker(t, threads, table, pile, model, random.split(), CrashWorkload::emit);
      new Thread(
              () -> {
                try {
                  while (true) {
                    worker.step();
                  }
                } catch (Throwable e) {
                  e.printStackTrace(); // the parent reads an early exit as a failure and shows this
                  Runtime.getRuntime().halt(2);
                }
              },
              "slot-worker-" + t)
          .start();
    }
  }
}
