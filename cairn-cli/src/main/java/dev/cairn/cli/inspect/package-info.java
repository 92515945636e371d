/**
 * What {@code cairn inspect} and {@code cairn verify} print about a persistent pile's directory:
 * the report of a {@link dev.cairn.pile.PileDirectory.Inspection}, as text for people and as
 * JSON for scripts, and the report of what {@code verify} found wrong.
 *
 * <p>Owns: the wording and the field names of those reports. Must not open, read or change a
 * pile's files itself: cairn-core's {@link dev.cairn.pile.PileDirectory} does that, and the
 * commands ({@code dev.cairn.cli}) choose exit codes.
 */
package dev.cairn.cli.inspect;
