/**
 * The machinery behind {@code cairn bench}: it loads the same values into a {@link
 * dev.cairn.pile.Pile} (volatile or persistent) and into a {@code ConcurrentHashMap}, reads them
 * back, and measures throughput, memory and GC pauses for each; it reopens a persistent pile and
 * times its restart; and it measures durable single-put commits of the pile against RocksDB's.
 *
 * <p>Owns: value generation ({@link dev.cairn.cli.bench.ValueSource}), the timed multi-threaded
 * loops (load, reopen, commits), the stores under test behind {@code BenchStore} (load) and
 * {@code CommitStore} (commits), the machine probes that give the figures a yardstick (fsync
 * latency, {@code dd} read rate, page cache dropping), process memory and GC pause readings, and
 * the report (table and JSON). Must not parse command-line options (that is {@code
 * BenchCommand}'s job) and must not reach into the pile's internals: it measures the public API,
 * as a user would see it. RocksDB is a benchmark-only dependency, touched by {@code
 * RocksDbCommitStore} alone.
 */
package dev.cairn.cli.bench;
