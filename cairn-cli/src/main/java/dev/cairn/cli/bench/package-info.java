/**
 * The machinery behind {@code cairn bench}: it loads the same values into a {@link
 * dev.cairn.pile.Pile} (volatile or persistent) and into a {@code ConcurrentHashMap}, reads them
 * back, and measures throughput, memory and GC pauses for each; it reopens a persistent pile and
 * times its restart; it measures durable single-put commits of the pile against RocksDB's; it
 * crashes a pile with a full log (a child JVM, {@code RecoveryFiller}, killed with SIGKILL) and
 * times its recovery; and it times puts while checkpoints run.
 *
 * <p>Owns: value generation ({@link dev.cairn.cli.bench.ValueSource}: strings, byte arrays and
 * the bench's own {@code Person} record), the timed multi-threaded loops (load, reopen, commits,
 * puts during checkpoints), the filler child process and its protocol (one {@code FILLED} line on
 * its stdout), the stores under test behind {@code BenchStore} (load) and
 * {@code CommitStore} (commits), the machine probes that give the figures a yardstick (fsync
 * latency, {@code dd} read rate, page cache dropping), process memory and GC pause readings, and
 * the report (table and JSON). Must not parse command-line options (that is {@code
 * BenchCommand}'s job) and must not reach into the pile's internals: it measures the public API,
 * as a user would see it. RocksDB is a benchmark-only dependency, touched by {@code
 * RocksDbCommitStore} alone.
 */
package dev.cairn.cli.bench;
