package dev.cairn.pile;

/**
 * What a persistent pile ({@link Pile#open}) promises about writes that a crash interrupts.
 * Chosen per pile in {@link PileOptions}; it may differ from one open to the next.
 *
 * <table>
 *   <caption>What survives</caption>
 *   <tr><th>level</th><th>kill -9</th><th>power loss</th><th>cost per write</th></tr>
 *   <tr><td>{@link #NONE}</td><td>the last checkpoint</td><td>the last checkpoint</td>
 *       <td>none: no log</td></tr>
 *   <tr><td>{@link #PERIODIC}</td><td>all but the last ~1 ms</td>
 *       <td>all but the last sync period</td><td>a log record, no wait</td></tr>
 *   <tr><td>{@link #SYNC}</td><td>every acknowledged write</td><td>every acknowledged write</td>
 *       <td>a log record and a shared fsync (group commit)</td></tr>
 * </table>
 *
 * <p>In every level the pile reopens consistent: each write and each transaction is all or
 * nothing, and what survives is a prefix of the order in which writes were acknowledged.
 */
public enum Durability {
  /**
   * No write-ahead log. The files change only at a checkpoint: {@link Pile#checkpoint()} or a
   * clean {@link Pile#close()}. After a crash the pile reopens exactly as of the last one. For
   * data that can be rebuilt, at the speed of the volatile pile.
   */
  NONE,
  /**
   * Every write is logged; the log is forced every {@link PileOptions#syncIntervalMillis()}. A
   * write returns before it is durable; a power loss loses at most about one interval.
   */
  PERIODIC,
  /**
   * Every write is logged and returns only once its log record is forced. Concurrent writers
   * share each force (group commit).
   */
  SYNC
}
