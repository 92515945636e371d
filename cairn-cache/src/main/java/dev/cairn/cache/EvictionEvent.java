package dev.cairn.cache;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event: one eviction pass of a bounded cache, from the moment its bytes were found over the
 * budget until they fit again (or only pinned entries were left), so that JDK Mission Control shows
 * eviction work beside GC pauses.
 */
@Name("dev.cairn.Eviction")
@Label("Cairn Eviction")
@Category({"Cairn", "Cache"})
@Description("An eviction pass of a bounded Cairn cache")
@StackTrace(false)
final class EvictionEvent extends Event {
  @Label("Bytes Freed")
  @DataAmount
  long bytesFreed;

  @Label("Bytes Over Budget")
  @Description("How far the cache was over its budget when the pass began")
  @DataAmount
  long bytesOver;

  @Label("Only Pinned Left")
  @Description("The pass stopped because only pinned entries were left to evict")
  boolean stuck;
}
