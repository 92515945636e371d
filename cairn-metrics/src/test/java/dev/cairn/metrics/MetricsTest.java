package dev.cairn.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheOptions;
import dev.cairn.cache.CacheTable;
import dev.cairn.pile.Durability;
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The meters and MBeans show what the pile and the cache did. */
class MetricsTest {
  @TempDir Path dir;

  @Test
  void pileMeters_followThePile() throws Exception {
    MeterRegistry registry = new SimpleMeterRegistry();
    PileOptions options = PileOptions.builder().durability(Durability.SYNC).build();
    try (Pile pile = Pile.open(dir.resolve("pile"), options)) {
      // @start region=pile
      new PileMetrics(pile, "orders").bindTo(registry);
      // @end
      double end = registry.get("cairn.pile.log.end").gauge().value();
      pile.put("one");
      pile.put("two");
      assertThat(registry.get("cairn.pile.objects").tag("pile", "orders").gauge().value())
          .isEqualTo(2);
      assertThat(registry.get("cairn.pile.log.end").gauge().value()).isGreaterThan(end);
      assertThat(registry.get("cairn.pile.log.durable").gauge().value())
          .isEqualTo(registry.get("cairn.pile.log.end").gauge().value());
      double checkpoints = registry.get("cairn.pile.checkpoints").functionCounter().count();
      pile.checkpoint();
      assertThat(registry.get("cairn.pile.checkpoints").functionCounter().count())
          .isEqualTo(checkpoints + 1);
      assertThat(registry.get("cairn.pile.recovery.replay").gauge().value())
          .isBetween(0.0, registry.get("cairn.pile.recovery.duration").gauge().value());
      assertThat(registry.get("cairn.pile.recovery.end.search").gauge().value())
          .as("a new pile: no crash, no end to prove")
          .isZero();
    }
    assertThat(registry.get("cairn.pile.objects").gauge().value()).isNaN();
  }

  @Test
  void cacheMeters_countHitsMissesPutsRemovalsAndEvictions() {
    MeterRegistry registry = new SimpleMeterRegistry();
    try (Cache cache = Cache.offHeap(CacheOptions.builder().budgetBytes(1 << 20).build())) {
      CacheTable<String, byte[]> pages = cache.table("pages", String.class, byte[].class);
      // @start region=cache
      new CacheMetrics(cache, "web").bindTo(registry); // after the tables are made
      // @end
      pages.put("a", new byte[10]);
      pages.get("a");
      pages.get("b");
      pages.remove("a");
      for (int i = 0; i < 20_000; i++) {
        pages.put("k" + i, new byte[100]);
      }
      assertThat(registry.get("cache.gets").tag("result", "hit").functionCounter().count())
          .isEqualTo(1);
      assertThat(registry.get("cache.gets").tag("result", "miss").functionCounter().count())
          .isEqualTo(1);
      assertThat(registry.get("cache.puts").functionCounter().count()).isEqualTo(20_001);
      assertThat(registry.get("cache.removals").tag("cause", "explicit").functionCounter().count())
          .isEqualTo(1);
      double evicted = registry.get("cache.evictions").functionCounter().count();
      assertThat(evicted).isPositive();
      assertThat(registry.get("cache.removals").tag("cause", "evicted").functionCounter().count())
          .isEqualTo(evicted);
      assertThat(registry.get("cache.size").gauge().value())
          .isEqualTo((double) cache.stats().tables().getFirst().entries());
      assertThat(registry.get("cairn.cache.used").gauge().value())
          .isLessThanOrEqualTo(registry.get("cairn.cache.budget").gauge().value() * 1.1);
      assertThat(registry.get("cairn.cache.bytes").tag("part", "index").gauge().value())
          .isPositive();
    }
  }

  @Test
  void mbeans_showTheCacheAndItsPile() throws Exception {
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, String> users = cache.table("users", String.class, String.class);
      users.put("ada", "Lovelace");
      users.get("ada");
      // @start region=jmx
      try (CairnMBeans beans = CairnMBeans.register(cache, "app")) {
        // dev.cairn:type=Pile,name="app" and dev.cairn:type=CacheTable,cache="app",name="users"
        // @end
        var server = ManagementFactory.getPlatformMBeanServer();
        ObjectName table = new ObjectName("dev.cairn:type=CacheTable,cache=\"app\",name=\"users\"");
        assertThat(server.getAttribute(table, "Hits")).isEqualTo(1L);
        assertThat(server.getAttribute(table, "Entries")).isEqualTo(1L);
        ObjectName pile = new ObjectName("dev.cairn:type=Pile,name=\"app\"");
        assertThat((Long) server.getAttribute(pile, "ObjectCount")).isPositive();
        assertThat(server.getAttribute(pile, "Persistent")).isEqualTo(false);
        assertThat(beans.names()).contains(table, pile);
      }
      assertThat(
              ManagementFactory.getPlatformMBeanServer()
                  .queryNames(new ObjectName("dev.cairn:*"), null))
          .isEmpty();
    }
  }
}
