package dev.cairn.metrics;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheStats;
import dev.cairn.cache.TableStats;
import dev.cairn.pile.DurabilityStats;
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileStats;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers a pile's and a cache's MBeans on the platform MBean server, beside the JVM's own (and
 * JCache's, for caches made through cairn-jcache): {@code dev.cairn:type=Pile,name=NAME} and one
 * {@code dev.cairn:type=CacheTable,cache=NAME,name=TABLE} per table. Names are quoted where JMX
 * needs it. {@link #close} unregisters what it registered.
 *
 * {@snippet class=dev.cairn.metrics.MetricsTest region=jmx}
 *
 * <p>Thread-safety: register and close from one thread; the beans themselves from any.
 */
public final class CairnMBeans implements AutoCloseable {
  private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
  private final List<ObjectName> registered = new ArrayList<>();

  /**
   * Registers the beans of {@code cache}'s pile and of its tables that exist now.
   *
   * @throws IllegalStateException if a bean of the same name is registered already
   */
  public static CairnMBeans register(Cache cache, String name) {
    CairnMBeans beans = new CairnMBeans();
    beans.add(new PileBean(cache.pile()), "dev.cairn:type=Pile,name=" + ObjectName.quote(name));
    for (String table : cache.tableNames()) {
      beans.add(
          new TableBean(cache, table),
          "dev.cairn:type=CacheTable,cache="
              + ObjectName.quote(name)
              + ",name="
              + ObjectName.quote(table));
    }
    return beans;
  }

  /**
   * Registers the bean of a pile.
   *
   * @throws IllegalStateException if a bean of the same name is registered already
   */
  public static CairnMBeans register(Pile pile, String name) {
    CairnMBeans beans = new CairnMBeans();
    beans.add(new PileBean(pile), "dev.cairn:type=Pile,name=" + ObjectName.quote(name));
    return beans;
  }

  private void add(Object bean, String name) {
    try {
      ObjectName objectName = new ObjectName(name);
      server.registerMBean(bean, objectName);
      registered.add(objectName);
    } catch (JMException e) {
      close();
      throw new IllegalStateException("cannot register MBean " + name + ": " + e, e);
    }
  }

  /** The names registered. */
  public List<ObjectName> names() {
    return List.copyOf(registered);
  }

  @Override
  public void close() {
    for (ObjectName n : registered) {
      try {
        server.unregisterMBean(n);
      } catch (JMException e) {
        // gone already
      }
    }
    registered.clear();
  }

  private record PileBean(Pile pile) implements PileMXBean {
    private PileStats s() {
      return pile.stats();
    }

    private DurabilityStats d() {
      return pile.durabilityStats();
    }

    @Override
    public long getObjectCount() {
      return s().objectCount();
    }

    @Override
    public int getSegmentCount() {
      return s().segmentCount();
    }

    @Override
    public long getCapacityBytes() {
      return s().capacityBytes();
    }

    @Override
    public long getAllocatedBytes() {
      return s().allocatedBytes();
    }

    @Override
    public long getUtilizedBytes() {
      return s().utilizedBytes();
    }

    @Override
    public long getFreeBytes() {
      return s().freeBytes();
    }

    @Override
    public boolean isPersistent() {
      return d().persistent();
    }

    @Override
    public long getLogEndLsn() {
      return d().logEndLsn();
    }

    @Override
    public long getDurableLsn() {
      return d().durableLsn();
    }

    @Override
    public long getCheckpoints() {
      return d().checkpoints();
    }

    @Override
    public long getLastCheckpointLsn() {
      return d().lastCheckpointLsn();
    }

    @Override
    public long getOpenMillis() {
      return d().openMillis();
    }

    @Override
    public long getReplayMillis() {
      return d().replayMillis();
    }

    @Override
    public long getRecordsReplayed() {
      return d().recordsReplayed();
    }

    @Override
    public long getEndSearchBytes() {
      return d().endSearchBytes();
    }

    @Override
    public boolean isLastCloseClean() {
      return d().lastCloseClean();
    }
  }

  private record TableBean(Cache cache, String table) implements CacheTableMXBean {
    private CacheStats all() {
      return cache.stats();
    }

    private TableStats t() {
      for (TableStats s : all().tables()) {
        if (s.name().equals(table)) {
          return s;
        }
      }
      throw new IllegalStateException("no table " + table + " in the cache any more");
    }

    @Override
    public long getHits() {
      return t().hits();
    }

    @Override
    public long getMisses() {
      return t().misses();
    }

    @Override
    public double getHitRatio() {
      return t().hitRatio();
    }

    @Override
    public long getPuts() {
      return t().puts();
    }

    @Override
    public long getRemovals() {
      return t().removals();
    }

    @Override
    public long getEvictions() {
      return t().evictions();
    }

    @Override
    public long getExpirations() {
      return t().expirations();
    }

    @Override
    public long getLoads() {
      return t().loads();
    }

    @Override
    public long getLoadNanos() {
      return t().loadNanos();
    }

    @Override
    public long getEntries() {
      return t().entries();
    }

    @Override
    public long getEntryBytes() {
      return t().entryBytes();
    }

    @Override
    public long getIndexBytes() {
      return t().indexBytes();
    }

    @Override
    public long getCacheBudgetBytes() {
      return all().budgetBytes();
    }

    @Override
    public long getCacheUsedBytes() {
      return all().usedBytes();
    }
  }
}
