package dev.cairn.cli.inspect;

import dev.cairn.cli.json.JsonWriter;
import dev.cairn.pile.PileDirectory.Inspection;
import dev.cairn.pile.PileStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a {@link Inspection} for people ({@link #text}) or scripts ({@link #json}); both carry the
 * same figures.
 *
 * {@snippet :
 * Inspection inspection = PileDirectory.inspect(Path.of("data/users"));
 * System.out.print(InspectionReport.text(inspection));
 * }
 *
 * <p>The JSON's keys are the {@code Inspection} and {@code PileStats} component names, with {@code
 * segments}, {@code objects} and {@code links} for the stats' counts, and the checkpoint time as an
 * ISO-8601 instant.
 */
public final class InspectionReport {

  private InspectionReport() {}

  public static String text(Inspection inspection) {
    PileStats stats = inspection.stats();
    List<String[]> rows = new ArrayList<>();
    rows.add(row("format version", Integer.toString(inspection.formatVersion())));
    rows.add(
        row(
            "geometry",
            String.format(
                Locale.ROOT,
                "%s segments, %d stripes",
                Sizes.binary(inspection.segmentBytes()),
                inspection.stripes())));
    rows.add(row("segments", count(stats.segmentCount())));
    rows.add(row("objects", count(stats.objectCount())));
    rows.add(row("links", count(stats.linkCount())));
    rows.add(row("capacity", Sizes.withExact(stats.capacityBytes())));
    rows.add(row("allocated", Sizes.withExact(stats.allocatedBytes())));
    rows.add(row("utilized", Sizes.withExact(stats.utilizedBytes())));
    rows.add(row("overhead", Sizes.withExact(stats.overheadBytes())));
    rows.add(
        row(
            "free",
            Sizes.withExact(stats.freeBytes())
                + ", largest block "
                + Sizes.binary(stats.largestFreeBlockBytes())));
    rows.add(
        row(
            "availability",
            String.format(
                Locale.ROOT,
                "%.1f %% of free bytes in blocks of" + " 64 KiB or more",
                100 * stats.availability())));
    rows.add(
        row(
            "checkpoint",
            String.format(
                Locale.ROOT,
                "LSN %,d at %s",
                inspection.checkpointLsn(),
                inspection.lastCheckpoint())));
    rows.add(row("log", logText(inspection)));
    if (inspection.unfinishedTransactions() > 0) {
      rows.add(
          row(
              "unfinished",
              String.format(
                  Locale.ROOT,
                  "%,d transaction%s the crash left"
                      + " open: the next open rolls %s back (the figures above leave %s out)",
                  inspection.unfinishedTransactions(),
                  inspection.unfinishedTransactions() == 1 ? "" : "s",
                  inspection.unfinishedTransactions() == 1 ? "it" : "them",
                  inspection.unfinishedTransactions() == 1 ? "it" : "them")));
    }
    rows.add(
        row(
            "tag bound",
            inspection.tagBound() > 0
                ? String.format(
                    Locale.ROOT,
                    "%,d (after a crash the pointer tag clock restarts here)",
                    inspection.tagBound())
                : "none recorded (a file of an earlier build: after a crash the tag clock skips at"
                    + " random)"));
    rows.add(
        row(
            "last close",
            inspection.lastCloseClean()
                ? "clean"
                : "NOT clean: the pile crashed or was killed, or its log holds records past the"
                    + " last checkpoint; the next open recovers it from the log"));

    StringBuilder text = new StringBuilder("pile ").append(inspection.directory()).append('\n');
    int width = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
    for (String[] row : rows) {
      text.append("  ")
          .append(row[0])
          .append(" ".repeat(width - row[0].length() + 2))
          .append(row[1])
          .append('\n');
    }
    return text.toString();
  }

  public static String json(Inspection inspection) {
    return json(inspection, null);
  }

  /** The pile's JSON, with a {@code "cache"} object when {@code cache} holds one. */
  public static String json(
      Inspection inspection, dev.cairn.cache.CacheDirectory.Inspection cache) {
    JsonWriter json = new JsonWriter().beginObject();
    fields(json, inspection);
    if (cache != null && cache.isCache()) {
      CacheReport.json(json, cache);
    }
    return json.endObject().toString();
  }

  /** Adds the inspection's fields to the object {@code json} has open; {@code verify} uses it. */
  static void fields(JsonWriter json, Inspection inspection) {
    PileStats stats = inspection.stats();
    json.field("directory", inspection.directory().toString())
        .field("formatVersion", inspection.formatVersion())
        .field("segmentBytes", inspection.segmentBytes())
        .field("stripes", inspection.stripes())
        .field("segments", stats.segmentCount())
        .field("objects", stats.objectCount())
        .field("links", stats.linkCount())
        .field("capacityBytes", stats.capacityBytes())
        .field("allocatedBytes", stats.allocatedBytes())
        .field("utilizedBytes", stats.utilizedBytes())
        .field("overheadBytes", stats.overheadBytes())
        .field("freeBytes", stats.freeBytes())
        .field("largestFreeBlockBytes", stats.largestFreeBlockBytes())
        .field("availability", stats.availability(), 4)
        .field("checkpointLsn", inspection.checkpointLsn())
        .field("lastCheckpoint", inspection.lastCheckpoint().toString())
        .field("logPresent", inspection.logPresent())
        .field("logEndLsn", inspection.logEndLsn())
        .field("logRecordsSinceCheckpoint", inspection.logRecordsSinceCheckpoint())
        .field("logBytesSinceCheckpoint", inspection.logBytesSinceCheckpoint())
        .field("unfinishedTransactions", inspection.unfinishedTransactions())
        .field("tagBound", inspection.tagBound())
        .field("lastCloseClean", inspection.lastCloseClean());
  }

  private static String logText(Inspection inspection) {
    if (!inspection.logPresent()) {
      // no records after the checkpoint, or no log at all: either way nothing to replay
      return "no records (the pile ran with durability none, or wrote nothing since creation)";
    }
    return String.format(
        Locale.ROOT,
        "ends at LSN %,d; %,d records (%s) since the checkpoint",
        inspection.logEndLsn(),
        inspection.logRecordsSinceCheckpoint(),
        Sizes.binary(inspection.logBytesSinceCheckpoint()));
  }

  private static String[] row(String label, String value) {
    return new String[] {label, value};
  }

  private static String count(long count) {
    return String.format(Locale.ROOT, "%,d", count);
  }
}
