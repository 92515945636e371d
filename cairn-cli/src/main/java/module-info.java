/**
 * The {@code cairn} command line.
 *
 * <p>Exports nothing: it is a program, not a library. {@code dev.cairn.cli} is opened to picocli,
 * which fills the commands' annotated fields by reflection. {@code jdk.management} gives the
 * per-collection GC pause durations that {@code cairn bench} reports, HdrHistogram its commit
 * latency percentiles. {@code dev.cairn.cli.bench} is opened to cairn-core, whose object codec
 * reads and constructs the bench's {@code Person} values by reflection.
 *
 * <p>RocksDB is {@code requires static}: only {@code cairn bench --commits --stores ...,rocksdb}
 * uses it, as a baseline, and the bench goes on without it when it is absent or its native code
 * does not load, so the program must not need it to start.
 *
 * <p>Both are automatic modules (plain jars, named after their file): their jars do not name a
 * module, and {@code ./cairn} runs everything from the class path anyway, hence the suppression.
 */
@SuppressWarnings("requires-automatic")
module dev.cairn.cli {
  requires dev.cairn.core;
  requires info.picocli;
  requires me.tongfei.progressbar;
  requires java.management;
  requires jdk.management;
  requires HdrHistogram;
  requires static rocksdbjni;

  opens dev.cairn.cli to
      info.picocli;
  // cairn bench --kind person: the pile's generated codec builds the bench's Person record
  opens dev.cairn.cli.bench to
      dev.cairn.core;
}
