package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bounded cache's eviction passes are JFR events, with the bytes they freed. */
class EvictionEventTest {
  @TempDir Path dir;

  @Test
  void evictionPasses_areJfrEvents() throws Exception {
    Path dump = dir.resolve("events.jfr");
    long evicted;
    try (Recording recording = new Recording()) {
      recording.enable("dev.cairn.Eviction");
      recording.start();
      try (Cache cache = Cache.offHeap(CacheOptions.builder().budgetBytes(1 << 20).build())) {
        LongCacheTable<byte[]> table = cache.longTable("t", byte[].class);
        for (long k = 0; k < 20_000; k++) {
          table.put(k, new byte[100]);
        }
        evicted = cache.stats().evictions();
      }
      recording.stop();
      recording.dump(dump);
    }
    List<RecordedEvent> passes =
        RecordingFile.readAllEvents(dump).stream()
            .filter(e -> e.getEventType().getName().equals("dev.cairn.Eviction"))
            .toList();
    assertThat(evicted).isPositive();
    assertThat(passes).isNotEmpty();
    assertThat(passes.stream().mapToLong(e -> e.getLong("bytesFreed")).sum()).isPositive();
    assertThat(passes).allSatisfy(e -> assertThat(e.getLong("bytesOver")).isPositive());
  }
}
