/**
 * The {@code cairn} command line.
 *
 * <p>A program, not a library. {@code dev.cairn.cli} is opened to picocli, which fills the
 * commands' annotated fields by reflection. It and {@code dev.cairn.cli.json} are exported for
 * cairn-bench, whose {@code bench} command plugs into this command line ({@link
 * dev.cairn.cli.Main#commandLine} finds it by name when cairn-bench is on the class path) and uses
 * its count converter, failure exception and JSON writer. Nothing here depends on the bench or on
 * the stores it compares the pile with.
 *
 * <p>Both modules it reads are transitive: the exported packages show their types to cairn-bench
 * ({@link dev.cairn.cli.Main#commandLine} returns picocli's {@code CommandLine}, the count
 * converter is a picocli converter, the failure exception a {@code CairnException}).
 *
 * <p>picocli is an automatic module (a plain jar, named after its file): its jar does not name a
 * module, and {@code ./cairn} runs everything from the class path anyway, hence the suppressions
 * (requiring it, and requiring it transitively).
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.cairn.cli {
  requires transitive dev.cairn.core;
  requires dev.cairn.cache;
  requires transitive info.picocli;

  exports dev.cairn.cli;
  exports dev.cairn.cli.json;

  opens dev.cairn.cli to
      info.picocli;
}
