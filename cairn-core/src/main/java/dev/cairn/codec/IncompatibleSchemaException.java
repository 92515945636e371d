package dev.cairn.codec;

import dev.cairn.CairnException;

/**
 * A stored object was written with a schema the current class cannot read: a field changed to a
 * type its stored values do not convert to (say {@code int} to {@code String}), a type changed kind
 * (an enum became a record), or a stored enum constant no longer exists.
 *
 * <p>The message names the type, the field, the stored type and the current one. Widening ({@code
 * int} to {@code long}, {@code float} to {@code double}), primitive to box and back, and a {@code
 * List} becoming a {@code Set} are not incompatible; see docs/FORMAT.md, "Schema evolution". To
 * keep reading such objects, keep the old field (perhaps under a new Java name, with {@link
 * CairnName}) and convert in code.
 */
public final class IncompatibleSchemaException extends CairnException {
  public IncompatibleSchemaException(String message) {
    super(message);
  }
}
