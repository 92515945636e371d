/**
 * The {@code cairn} command line.
 *
 * <p>A program, not a library. {@code dev.cairn.cli} is opened to picocli, which fills the
 * commands' annotated fields by reflection. It and {@code dev.cairn.cli.json} are exported for
 * cairn-bench, whose {@code bench} command plugs into this command line ({@link
 * dev.cairn.cli.Main#commandLine} finds it by name when cairn-bench is on the class path) and
 * uses its count converter, failure exception and JSON writer. Nothing here depends on the bench
 * or on the stores it compares the pile with.
 *
 * <p>picocli is an automatic module (a plain jar, named after its file): its jar does not name a
 * module, and {@code ./cairn} runs everything from the class path anyway, hence the suppression.
 */
@SuppressWarnings("requires-automatic")
module dev.cairn.cli {
  requires dev.cairn.core;
  requires info.picocli;

  exports dev.cairn.cli;
  exports dev.cairn.cli.json;

  opens dev.cairn.cli to
      info.picocli;
}
