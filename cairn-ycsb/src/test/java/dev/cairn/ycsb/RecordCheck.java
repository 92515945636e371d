package dev.cairn.ycsb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cache.CacheTable;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import site.ycsb.ByteIterator;

/**
 * Checks every record of a table as YCSB's core workload writes it with {@code dataintegrity=true}
 * and its default 10 fields of 100 bytes: each field {@code field0} to {@code field9} present, 100
 * bytes long, and starting with "key:field" (YCSB's deterministic values do). YCSB's own check sees
 * only the fields a read returns, so a record that lost a field passes it.
 */
final class RecordCheck {
  static final int FIELDS = 10;
  static final int FIELD_LENGTH = 100;

  private RecordCheck() {}

  /** Asserts that {@code table} holds {@code expected} records, each whole. */
  static void assertWhole(CacheTable<String, byte[]> table, long expected) {
    long records = 0;
    for (Map.Entry<String, byte[]> entry : table) {
      String key = entry.getKey();
      Map<String, ByteIterator> fields = new HashMap<>();
      RecordCodec.decode(entry.getValue(), null, fields);
      assertThat(fields).as(key).hasSize(FIELDS);
      for (int f = 0; f < FIELDS; f++) {
        String name = "field" + f;
        assertThat(fields).as(key).containsKey(name);
        String value = new String(fields.get(name).toArray(), StandardCharsets.UTF_8);
        assertThat(value).as(key + "/" + name).hasSize(FIELD_LENGTH).startsWith(key + ":" + name);
      }
      records++;
    }
    assertThat(records).as("records in " + table.name()).isEqualTo(expected);
    assertThat(table.size()).as("size of " + table.name()).isEqualTo(expected);
  }
}
