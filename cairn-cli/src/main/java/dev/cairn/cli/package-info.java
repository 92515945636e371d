/**
 * The {@code cairn} command and its subcommands, as picocli {@code *Command} classes.
 *
 * <p>Owns: option parsing and validation, exit codes, and where output goes (results to stdout,
 * progress and errors to stderr). Must not hold store logic: a command parses its options, hands
 * them to a helper package ({@code dev.cairn.cli.inspect}) or to cairn-core, and prints the result.
 * {@code cairn bench} is not here: it lives in cairn-bench ({@code dev.cairn.bench.harness}), and
 * {@link dev.cairn.cli.Main} adds it when it is on the class path.
 */
package dev.cairn.cli;
