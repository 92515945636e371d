package dev.cairn.cli.inspect;

import dev.cairn.cli.json.JsonWriter;
import dev.cairn.durability.LogDamage;
import dev.cairn.pile.PileDirectory.Salvage;
import java.util.Locale;

/**
 * What {@code cairn recover} prints: that the pile was recovered, and whether part of a damaged log
 * was dropped; if so where the damage was, what was dropped (bytes exactly, records as counted) and
 * where the copy of the damaged log is.
 *
 * {@snippet :
 * System.out.print(RecoverReport.text(PileDirectory.salvage(dir)));
 * // RECOVERED, dropping part of a damaged log
 * //   damage        data/users/wal/wal-0000.log at offset 10952 (lsn 6856): ...
 * //   kept          every write logged before lsn 6856 (60 log records replayed)
 * //   ...
 * }
 */
public final class RecoverReport {

  private RecoverReport() {}

  public static String text(Salvage salvage) {
    StringBuilder text = new StringBuilder();
    LogDamage damage = salvage.damage();
    if (damage == null) {
      text.append("RECOVERED, nothing dropped: the log was not damaged\n");
      line(text, "directory", salvage.directory().toString());
      line(
          text,
          "replayed",
          String.format(Locale.ROOT, "%,d log records", salvage.logRecordsReplayed()));
    } else {
      text.append("RECOVERED, dropping part of a damaged log\n");
      line(text, "directory", salvage.directory().toString());
      line(
          text,
          "damage",
          damage.file()
              + " at offset "
              + damage.fileOffset()
              + " (lsn "
              + damage.firstDroppedLsn()
              + "): "
              + damage.problem());
      line(
          text,
          "kept",
          String.format(
              Locale.ROOT,
              "every write logged before lsn %d (%,d log records replayed)",
              damage.firstDroppedLsn(),
              salvage.logRecordsReplayed()));
      line(
          text,
          "dropped",
          String.format(
              Locale.ROOT,
              "lsn %d to %d: %,d bytes (exact); %,d readable records after the damage (counted),"
                  + " plus the damaged record in %,d unreadable bytes",
              damage.firstDroppedLsn(),
              damage.droppedEndLsn(),
              damage.droppedBytes(),
              damage.readableRecordsDropped(),
              damage.unreadableBytes()));
      line(
          text,
          "last dropped",
          damage.lastDroppedLsn() < 0
              ? "no readable record"
              : "the record at lsn " + damage.lastDroppedLsn());
      line(text, "copy", damage.copy() + " (the damaged log as it was; Cairn never deletes it)");
    }
    line(
        text,
        "rolled back",
        String.format(
            Locale.ROOT, "%,d unfinished transactions", salvage.transactionsRolledBack()));
    line(text, "objects", String.format(Locale.ROOT, "%,d", salvage.objectCount()));
    return text.toString();
  }

  public static String json(Salvage salvage) {
    LogDamage damage = salvage.damage();
    JsonWriter json =
        new JsonWriter()
            .beginObject()
            .field("recovered", true)
            .field("dropped", damage != null)
            .field("directory", salvage.directory().toString())
            .field("logRecordsReplayed", salvage.logRecordsReplayed())
            .field("transactionsRolledBack", salvage.transactionsRolledBack())
            .field("objects", salvage.objectCount());
    if (damage == null) {
      json.nullField("damage");
    } else {
      json.beginObject("damage")
          .field("file", damage.file().toString())
          .field("offset", damage.fileOffset())
          .field("problem", damage.problem())
          .field("firstDroppedLsn", damage.firstDroppedLsn())
          .field("lastDroppedLsn", damage.lastDroppedLsn())
          .field("droppedEndLsn", damage.droppedEndLsn())
          .field("droppedBytes", damage.droppedBytes())
          .field("readableRecordsDropped", damage.readableRecordsDropped())
          .field("unreadableBytes", damage.unreadableBytes())
          .field("copy", damage.copy().toString())
          .endObject();
    }
    return json.endObject().toString();
  }

  private static void line(StringBuilder text, String label, String value) {
    text.append(String.format(Locale.ROOT, "  %-13s %s%n", label, value));
  }
}
