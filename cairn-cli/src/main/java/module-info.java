/**
 * The {@code cairn} command line.
 *
 * <p>Exports nothing: it is a program, not a library. {@code dev.cairn.cli} is opened to picocli,
 * which fills the commands' annotated fields by reflection. {@code jdk.management} gives the
 * per-collection GC pause durations that {@code cairn bench} reports.
 */
module dev.cairn.cli {
  requires dev.cairn.core;
  requires info.picocli;
  requires me.tongfei.progressbar;
  requires java.management;
  requires jdk.management;

  opens dev.cairn.cli to
      info.picocli;
}
