/**
 * What {@code cairn inspect}, {@code verify} and {@code recover} print about a persistent pile's
 * directory: the report of a {@link dev.cairn.pile.PileDirectory.Inspection}, as text for people
 * and as JSON for scripts, the report of what {@code verify} found wrong, and the report of what
 * {@code recover} kept and dropped.
 *
 * <p>Owns: the wording and the field names of those reports. Must not open, read or change a pile's
 * files itself: cairn-core's {@link dev.cairn.pile.PileDirectory} does that, and the commands
 * ({@code dev.cairn.cli}) choose exit codes.
 */
package dev.cairn.cli.inspect;
