/**
 * A small JSON writer shared by the commands' {@code --json} output ({@code bench}, {@code
 * inspect}, {@code verify}).
 *
 * <p>Owns: the JSON text form (indentation, number and string encoding), so every command prints
 * the same dialect. Must not know what any document means: callers decide the fields.
 */
package dev.cairn.cli.json;
