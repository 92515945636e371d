/**
 * {@code cairn bench}: the command ({@link dev.cairn.bench.harness.BenchCommand}) and the machinery
 * behind it. It loads the same values into a {@link dev.cairn.pile.Pile} (volatile or persistent)
 * and into a {@code ConcurrentHashMap}, reads them back, and measures throughput, memory and GC
 * pauses for each; it reopens a persistent pile and times its restart; it measures durable
 * single-put commits of the pile against RocksDB's; it crashes a pile with a full log (a child JVM,
 * {@code RecoveryFiller}, killed with SIGKILL) and times its recovery; and it times puts while
 * checkpoints run.
 *
 * <p>Why here, and not in cairn-cli: the bench compares the pile with peers, other stores (RocksDB
 * now, others later), which are benchmark dependencies only; the command line a user installs must
 * not carry them, in its jar's dependencies or its {@code lib/}. So cairn-bench depends on
 * cairn-cli and plugs this command into it: {@code dev.cairn.cli.Main} adds {@code BenchCommand} by
 * name when this module is on the class path, and {@code ./cairn bench} runs the command line from
 * {@code cairn-bench/target/cairn-bench.jar}, whose manifest names the CLI, the harness's libraries
 * and the peers. The other commands run from cairn-cli's jar alone. The reverse (the CLI depending
 * on the harness) would put the peers on the CLI's class path.
 *
 * <p>Owns: option parsing for {@code cairn bench} ({@code BenchCommand}, the one class here that
 * does), value generation ({@link dev.cairn.bench.harness.ValueSource}: strings, byte arrays and
 * the bench's own {@code Person} record), the timed multi-threaded loops (load, reopen, commits,
 * puts during checkpoints), the child JVMs ({@code ChildJvm}: the filler and its protocol, one
 * {@code FILLED} line on its stdout; the restart probe), the stores under test behind {@code
 * BenchStore} (load) and {@code CommitStore} (commits), the machine probes that give the figures a
 * yardstick (fsync latency, {@code dd} read rate, page cache dropping), process memory and GC pause
 * readings, and the report (table and JSON). Must not reach into the pile's internals: it measures
 * the public API, as a user would see it, and finds a pile's files through {@link
 * dev.cairn.pile.PileDirectory#files}, not by their names. Peers are touched only by their own
 * store classes ({@code RocksDbStore}, {@code RocksDbCommitStore}) and {@code FirstGetProbe}'s
 * rocksdb mode.
 */
package dev.cairn.bench.harness;
