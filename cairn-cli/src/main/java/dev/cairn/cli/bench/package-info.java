/**
 * The machinery behind {@code cairn bench}: it loads the same values into a {@link
 * dev.cairn.pile.Pile} and into a {@code ConcurrentHashMap}, reads them back, and measures
 * throughput, memory and GC pauses for each.
 *
 * <p>Owns: value generation ({@link dev.cairn.cli.bench.ValueSource}), the timed multi-threaded
 * loops, process memory and GC pause readings, and the report (table and JSON). Must not parse
 * command-line options (that is {@code BenchCommand}'s job) and must not reach into the pile's
 * internals: it measures the public API, as a user would see it.
 */
package dev.cairn.cli.bench;
