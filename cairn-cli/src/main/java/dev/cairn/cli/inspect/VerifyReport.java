package dev.cairn.cli.inspect;

import dev.cairn.cli.json.JsonWriter;
import dev.cairn.pile.PileDirectory.Inspection;
import dev.cairn.pile.PileStats;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What {@code cairn verify} prints: "OK" and a one-line summary of what was checked, or "DAMAGED"
 * and the first problem, naming the file and offset (or the segment and invariant).
 *
 * {@snippet :
 * System.out.print(VerifyReport.okText(PileDirectory.verify(dir)));
 * // OK
 * // data/users: 20,000 objects, 3 segments, 201,329,664 bytes checked, 12 log records checked
 * }
 *
 * <p>"Bytes checked" are the segments' bytes, whose block headers and free lists the allocator walk
 * checks (values carry no checksum of their own, so their contents are not), plus the log bytes
 * since the checkpoint, each record of which is checked against its CRC32C.
 */
public final class VerifyReport {

  private VerifyReport() {}

  public static String okText(Inspection inspection) {
    PileStats stats = inspection.stats();
    return String.format(
        Locale.ROOT,
        "OK%n%s: %,d objects, %,d segments, %,d bytes checked, %,d log records checked%n",
        inspection.directory(),
        stats.objectCount(),
        stats.segmentCount(),
        bytesChecked(inspection),
        inspection.logRecordsSinceCheckpoint());
  }

  public static String okJson(Inspection inspection) {
    return okJson(inspection, null);
  }

  /** {@link #okJson(Inspection)} with the cache's check when the pile holds a cache. */
  public static String okJson(
      Inspection inspection, dev.cairn.cache.CacheDirectory.Inspection cache) {
    JsonWriter json =
        new JsonWriter()
            .beginObject()
            .field("ok", true)
            .field("bytesChecked", bytesChecked(inspection))
            .field("logRecordsChecked", inspection.logRecordsSinceCheckpoint());
    if (cache != null && cache.isCache()) {
      CacheReport.json(json, cache);
    }
    json.beginObject("inspection");
    InspectionReport.fields(json, inspection);
    return json.endObject().endObject().toString();
  }

  public static String damagedText(Path directory, Damage damage) {
    StringBuilder text = new StringBuilder("DAMAGED\n");
    text.append("  directory  ").append(directory).append('\n');
    text.append("  problem    ").append(damage.kind()).append('\n');
    if (damage.file() != null) {
      text.append("  file       ").append(damage.file()).append('\n');
    }
    if (damage.offset() >= 0) {
      text.append("  offset     ").append(damage.offset()).append('\n');
    }
    text.append("  detail     ").append(damage.message()).append('\n');
    return text.toString();
  }

  public static String damagedJson(Path directory, Damage damage) {
    JsonWriter json =
        new JsonWriter()
            .beginObject()
            .field("ok", false)
            .field("directory", directory.toString())
            .field("problem", damage.kind())
            .field("file", damage.file() == null ? null : damage.file().toString());
    if (damage.offset() >= 0) {
      json.field("offset", damage.offset());
    } else {
      json.nullField("offset");
    }
    return json.field("message", damage.message()).endObject().toString();
  }

  private static long bytesChecked(Inspection inspection) {
    return inspection.stats().capacityBytes() + inspection.logBytesSinceCheckpoint();
  }
}
