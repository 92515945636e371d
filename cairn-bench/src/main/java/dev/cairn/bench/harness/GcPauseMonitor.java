package dev.cairn.bench.harness;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Measures GC pauses within windows of time: count and total from the collectors' MXBean counters,
 * the longest single pause from the per-collection notifications of {@code com.sun.management} (the
 * counters only give sums).
 *
 * <p>Only pauses count. ZGC and Shenandoah also have MXBeans for their concurrent cycles ("ZGC
 * Major Cycles", "Shenandoah Cycles"), which run beside the application and stop nothing; those
 * beans are left out. G1's "G1 Concurrent GC" bean counts the Remark and Cleanup pauses, and stays
 * in.
 */
public final class GcPauseMonitor implements AutoCloseable {
  /** How long {@link #end} waits for notifications, which a JMX thread delivers after the GC. */
  private static final long NOTIFICATION_WAIT_NANOS = 2_000_000_000L;

  private final List<GarbageCollectorMXBean> pauseCollectors;

  /** Per collector name: (collection id, duration ms) of each pause notified so far. */
  private final Map<String, ConcurrentLinkedQueue<long[]>> notified = new ConcurrentHashMap<>();

  private final NotificationListener listener = this::onNotification;

  /** Counter readings at the start of a window. */
  public record Window(long[] counts, long[] millis) {}

  public GcPauseMonitor() {
    pauseCollectors =
        ManagementFactory.getGarbageCollectorMXBeans().stream()
            .filter(bean -> !bean.getName().contains("Cycles"))
            .toList();
    for (GarbageCollectorMXBean bean : pauseCollectors) {
      notified.put(bean.getName(), new ConcurrentLinkedQueue<>());
      if (bean instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
      }
    }
  }

  public Window begin() {
    long[] counts = new long[pauseCollectors.size()];
    long[] millis = new long[pauseCollectors.size()];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = pauseCollectors.get(i).getCollectionCount();
      millis[i] = pauseCollectors.get(i).getCollectionTime();
    }
    return new Window(counts, millis);
  }

  public GcPauses end(Window window) throws InterruptedException {
    long count = 0;
    long totalMillis = 0;
    long[] endCounts = new long[pauseCollectors.size()];
    for (int i = 0; i < endCounts.length; i++) {
      GarbageCollectorMXBean bean = pauseCollectors.get(i);
      endCounts[i] = bean.getCollectionCount();
      count += endCounts[i] - window.counts()[i];
      totalMillis += bean.getCollectionTime() - window.millis()[i];
    }
    // A notification's duration is the difference of two millisecond timestamps, so it can read
    // 1 ms long; the MXBean total is summed from exact times. One pause is never above the total.
    double maxMillis = Math.min(maxPauseMillis(window, endCounts), (double) totalMillis);
    return new GcPauses(count, totalMillis, maxMillis);
  }

  /**
   * The longest pause with a collection id in the window, per collector (a GcInfo id is the
   * collector's collection count after that collection). Waits a bounded time for notifications
   * still in flight; if some never come, the maximum is unknown.
   */
  private double maxPauseMillis(Window window, long[] endCounts) throws InterruptedException {
    long deadline = System.nanoTime() + NOTIFICATION_WAIT_NANOS;
    while (true) {
      long max = 0;
      boolean complete = true;
      for (int i = 0; i < endCounts.length; i++) {
        long first = window.counts()[i] + 1;
        long seen = 0;
        for (long[] pause : notified.get(pauseCollectors.get(i).getName())) {
          if (pause[0] >= first && pause[0] <= endCounts[i]) {
            seen++;
            max = Math.max(max, pause[1]);
          }
        }
        complete &= seen >= endCounts[i] - window.counts()[i];
      }
      if (complete) {
        return max;
      }
      if (System.nanoTime() > deadline) {
        return Double.NaN;
      }
      Thread.sleep(10);
    }
  }

  private void onNotification(Notification notification, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
        notification.getType())) {
      return;
    }
    var info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    ConcurrentLinkedQueue<long[]> pauses = notified.get(info.getGcName());
    if (pauses != null) {
      pauses.add(new long[] {info.getGcInfo().getId(), info.getGcInfo().getDuration()});
    }
  }

  @Override
  public void close() {
    for (GarbageCollectorMXBean bean : pauseCollectors) {
      if (bean instanceof NotificationEmitter emitter) {
        try {
          emitter.removeNotificationListener(listener);
        } catch (ListenerNotFoundException alreadyGone) {
          // nothing to undo
        }
      }
    }
  }
}
