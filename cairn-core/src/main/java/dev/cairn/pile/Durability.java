package dev.cairn.pile;

/**
 * What a persistent pile ({@link Pile#open}) promises about writes that a crash interrupts. Chosen
 * per pile in {@link PileOptions}; it may differ from one open to the next.
 *
 * <table>
 *   <caption>What survives</caption>
 *   <tr><th>level</th><th>kill -9</th><th>power loss</th><th>cost per write</th></tr>
 *   <tr><td>{@link #NONE}</td><td>the last checkpoint</td><td>the last checkpoint</td>
 *       <td>none: no log</td></tr>
 *   <tr><td>{@link #PERIODIC}</td><td>all but the last few ms (see below)</td>
 *       <td>all but about the last sync interval and a log force</td>
 *       <td>a log record, no wait</td></tr>
 *   <tr><td>{@link #SYNC}</td><td>every acknowledged write</td><td>every acknowledged write</td>
 *       <td>a log record and a shared fsync (group commit)</td></tr>
 * </table>
 *
 * <p>In every level the pile reopens consistent: each write and each transaction is all or nothing,
 * and what survives is a prefix of the order in which writes were acknowledged.
 */
public enum Durability {
  /**
   * No write-ahead log. The files change only at a checkpoint: {@link Pile#checkpoint()} or a clean
   * {@link Pile#close()}. After a crash the pile reopens exactly as of the last one. For data that
   * can be rebuilt, at the speed of the volatile pile.
   */
  NONE,
  /**
   * Every write is logged; the log is forced every {@link PileOptions#syncIntervalMillis()}. A
   * write returns before it is durable.
   *
   * <p><b>kill -9</b> loses what the log's flusher thread had not yet handed to the operating
   * system: writes of about the last 2 ms (it writes within its 1 ms write delay of seeing a
   * record, and looks for records at least every write delay), plus however long the flusher was
   * not running: not scheduled on a loaded machine, or blocked in a write while the kernel
   * throttles a process that dirties pages fast (a checkpoint writing segment files). On a 2-core
   * VM shared with other builds (load average 8-11) the oldest acknowledged write lost was 0.7-11
   * ms old at the kill in the median of a run, and 157 ms at worst ({@code PeriodicLossWindowTest}
   * with {@code -Dcairn.soak=true}; docs/DURABILITY.md). A write that must survive for sure is a
   * {@link #SYNC} one, or {@code commit(Durability.SYNC)}.
   *
   * <p><b>Power loss</b> also loses what was written but not forced: up to one sync interval plus
   * the time of a force (two when forces are slower than the interval: the one running, then the
   * one that covers the write). A force took up to 137 ms while checkpoints wrote.
   *
   * <p>A transaction committed with {@code commit(Durability.SYNC)} is forced before the commit
   * returns, as in a {@link #SYNC} pile.
   */
  PERIODIC,
  /**
   * Every write is logged and returns only once its log record is forced. Concurrent writers share
   * each force (group commit).
   */
  SYNC
}
