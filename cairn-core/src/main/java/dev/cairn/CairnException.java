package dev.cairn;

/**
 * Base type of every exception Cairn raises for its own reasons: a bad pointer, a full or closed
 * pile, a damaged or locked file, a value that does not decode. One {@code catch (CairnException
 * e)} catches them all; the subtypes say which and carry the details.
 *
 * <p>Unchecked, as every Cairn exception is. Misuse that any Java API would reject the same way (a
 * null argument, a negative size, a closed buffer) raises the JDK's own exception instead ({@link
 * NullPointerException}, {@link IllegalArgumentException}, {@link IllegalStateException}), with a
 * message that states the rule and the values.
 *
 * <p>The families, by package: {@code dev.cairn.pile.PileException} (the pile: pointers, memory,
 * state), the exceptions of {@code dev.cairn.durability} (a persistent pile's files), and those of
 * {@code dev.cairn.codec} (encoding and decoding values).
 */
public class CairnException extends RuntimeException {
  public CairnException(String message) {
    super(message);
  }

  public CairnException(String message, Throwable cause) {
    super(message, cause);
  }
}
