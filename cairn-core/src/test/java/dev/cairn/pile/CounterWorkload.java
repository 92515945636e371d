package dev.cairn.pile;

import dev.cairn.pile.participant.CounterTable;
import dev.cairn.pile.participant.Participants;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The child JVM of {@link ParticipantKillNineTest}: a {@link CounterTable} participant over a
 * {@link Durability#SYNC} pile, changed from several threads until the parent kills it.
 *
 * <p>Arguments: {@code <directory> <seed> <threads>}. Thread {@code t} adds items to counters a, b
 * and c, removes its own items, and (thread 0 only) sets counter "manual". The protocol on standard
 * output, one whole line per event ({@link CrashWorkload#emit}), W lines before the write and the
 * others once it returned (acknowledged):
 *
 * <pre>
 * READY                          the pile is open; writes start now
 * &lt;t&gt; A &lt;pointer&gt; &lt;counter&gt;     an item of counter was added at pointer
 * &lt;t&gt; W R &lt;pointer&gt;             about to remove pointer
 * &lt;t&gt; R &lt;pointer&gt;               pointer was removed
 * &lt;t&gt; W S &lt;value&gt;               about to set "manual" to value
 * &lt;t&gt; S &lt;value&gt;                 "manual" was set to value
 * </pre>
 */
public final class CounterWorkload {

  static final int PARTICIPANT = 11;

  static PileOptions options() {
    return PileOptions.builder()
        .segmentBytes(1 << 20)
        .stripes(4)
        .durability(Durability.SYNC)
        .logFileBytes(1 << 20)
        .logFileCount(4)
        .build();
  }

  private CounterWorkload() {} // a child JVM's main class: never instantiated

  public static void main(String[] args) throws IOException {
    Path directory = Path.of(args[0]);
    SplittableRandom random = new SplittableRandom(Long.parseLong(args[1]));
    int threads = Integer.parseInt(args[2]);
    CrashWorkload.haltWhenParentGoesAway();
    CounterTable table = new CounterTable(PARTICIPANT);
    Pile pile = Participants.open(directory, options(), table); // never closed: SIGKILL ends it
    table.attachTo(pile);
    CrashWorkload.emit("READY");
    for (int t = 0; t < threads; t++) {
      int thread = t;
      SplittableRandom own = random.split();
      new Thread(
              () -> {
                try {
                  work(table, thread, own);
                } catch (Throwable e) {
                  e.printStackTrace(); // the parent reads an early exit as a failure and shows this
                  Runtime.getRuntime().halt(2);
                }
              },
              "counter-worker-" + t)
          .start();
    }
  }

  private static void work(CounterTable table, int thread, SplittableRandom random) {
    List<long[]> mine = new ArrayList<>(); // pointer, counter index
    String[] counters = {"a", "b", "c"};
    for (int seq = 0; ; seq++) {
      int choice = random.nextInt(10);
      if (choice < 6 || mine.isEmpty()) {
        int c = random.nextInt(counters.length);
        long pointer = table.add(counters[c], ParticipantTest.item(counters[c], seq));
        mine.add(new long[] {pointer, c});
        CrashWorkload.emit(thread + " A " + Long.toHexString(pointer) + " " + counters[c]);
      } else if (choice < 9 || thread != 0) {
        long[] item = mine.remove(random.nextInt(mine.size()));
        CrashWorkload.emit(thread + " W R " + Long.toHexString(item[0]));
        table.remove(counters[(int) item[1]], item[0]);
        CrashWorkload.emit(thread + " R " + Long.toHexString(item[0]));
      } else {
        long value = 1L + random.nextInt(1_000_000);
        CrashWorkload.emit(thread + " W S " + value);
        table.set("manual", value);
        CrashWorkload.emit(thread + " S " + value);
      }
    }
  }
}
