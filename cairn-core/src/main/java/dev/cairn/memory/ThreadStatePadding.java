package dev.cairn.memory;

/**
 * Two cache lines of padding ahead of the fields of an object that one thread writes on every
 * operation: its scratch state (a {@code Scratch}, the records and codecs it holds).
 *
 * <p>Such objects are made in their thread's own allocation buffer, far from other threads' ones,
 * but a collection copies live objects into new regions in the order its workers reach them, and
 * may put the scratch objects of two threads next to each other. Their fields could then share a
 * cache line, and each thread's writes would take the line from the other's core on every operation
 * (false sharing). The JVM lays a superclass's fields out before its subclass's, so a subclass's
 * own fields start at least 128 bytes after the end of the object before it, and the object after
 * it, if also padded so, keeps its fields as far from them. 128 bytes rather than 64: the
 * adjacent-line prefetcher fetches lines in pairs. The {@code int} fills the 4 bytes between a
 * 12-byte object header and the first {@code long}, where the JVM would otherwise put a small field
 * of the subclass.
 *
 * <p>What it was measured against (docs/BENCHMARKS.md, "Per-thread state on lines of its own"): a
 * 10M-key load through the cache's JCache provider, whose boxed keys make young collections during
 * it, run by hand, loaded under 3.0M keys a second in 5 of 14 JVMs and at 3.8M-5.1M in the others;
 * with this padding, under 3.0M in 2 of 30. Through {@code cairn bench}'s rounds such slow JVMs
 * stayed as common: they are the JVMs that collect during the load, and what a collection leaves
 * behind that slows them is not found (64-byte object alignment did not remove them).
 */
@SuppressWarnings("unused")
public abstract class ThreadStatePadding {
  private int p00;
  private long p01, p02, p03, p04, p05, p06, p07, p08;
  private long p09, p10, p11, p12, p13, p14, p15, p16;

  protected ThreadStatePadding() {}
}
