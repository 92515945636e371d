package dev.cairn.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What {@code inspect}, {@code verify} and {@code recover} are given: the pile's directory, and
 * whether to print JSON. A picocli mixin, so that the three declare them once and alike.
 */
final class DirectoryArguments {

  @Parameters(
      paramLabel = "DIR",
      description = "The pile's directory (the one given to Pile.open).")
  private Path directory;

  @Option(names = "--json", description = "Print one JSON document on stdout instead of text.")
  private boolean json;

  /** The pile's directory. */
  Path directory() {
    return directory;
  }

  /** Whether the report is to be one JSON document. */
  boolean json() {
    return json;
  }
}
