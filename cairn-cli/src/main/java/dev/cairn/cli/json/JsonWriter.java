package dev.cairn.cli.json;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Writes one JSON document, pretty-printed with two-space indents and {@code "key": value} fields,
 * one per line. Written by hand rather than with a JSON library: the CLI's documents are small and
 * flat, and a library would be the CLI's largest dependency.
 *
 * {@snippet :
 * String json = new JsonWriter()
 *     .beginObject()
 *     .field("n", 10)
 *     .field("dir", "/tmp/x")
 *     .beginObject("pile").field("putsPerSec", 1.5e7, 0).endObject()
 *     .endObject()
 *     .toString();
 * }
 *
 * <p>Numbers are written in plain notation (never {@code 1E+7}), rounded to the decimals the caller
 * asks for; a NaN or infinite number, which JSON cannot hold, is written as {@code null}. Not
 * thread-safe; the caller balances its begin and end calls.
 */
public final class JsonWriter {
  private final StringBuilder json = new StringBuilder(1024);
  private int depth;

  /** Whether the object now open has a field yet, so the next one needs a comma before it. */
  private boolean hasField;

  /** An empty document: the first call is {@link #beginObject()}. */
  public JsonWriter() {}

  /** Opens the document's top-level object. */
  public JsonWriter beginObject() {
    json.append('{');
    depth++;
    hasField = false;
    return this;
  }

  /** Opens an object as the value of field {@code key}. */
  public JsonWriter beginObject(String key) {
    key(key);
    return beginObject();
  }

  /** Closes the innermost open object; an empty one is written {@code {}}. */
  public JsonWriter endObject() {
    depth--;
    if (hasField) {
      json.append('\n').append(indent(depth));
    }
    json.append('}');
    hasField = true;
    if (depth == 0) {
      json.append('\n');
    }
    return this;
  }

  public JsonWriter field(String key, long value) {
    key(key).append(value);
    return this;
  }

  /** A number rounded to {@code decimals} places; {@code null} if it is NaN or infinite. */
  public JsonWriter field(String key, double value, int decimals) {
    key(key).append(Double.isFinite(value) ? number(value, decimals) : "null");
    return this;
  }

  public JsonWriter field(String key, boolean value) {
    key(key).append(value);
    return this;
  }

  /** A string, or {@code null} when {@code value} is null. */
  public JsonWriter field(String key, String value) {
    key(key).append(value == null ? "null" : quote(value));
    return this;
  }

  public JsonWriter nullField(String key) {
    key(key).append("null");
    return this;
  }

  @Override
  public String toString() {
    return json.toString();
  }

  private StringBuilder key(String key) {
    json.append(hasField ? ",\n" : "\n").append(indent(depth)).append(quote(key)).append(": ");
    hasField = true;
    return json;
  }

  private static String indent(int depth) {
    return "  ".repeat(depth);
  }

  /** A JSON string: quote, backslash and control characters escaped (RFC 8259, section 7). */
  public static String quote(String text) {
    StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        case '\r' -> quoted.append("\\r");
        case '\t' -> quoted.append("\\t");
        default -> {
          if (c < 0x20) {
            quoted.append(String.format("\\u%04x", (int) c));
          } else {
            quoted.append(c);
          }
        }
      }
    }
    return quoted.append('"').toString();
  }

  /** A JSON number in plain notation (no exponent), rounded half-even to {@code decimals}. */
  public static String number(double value, int decimals) {
    return BigDecimal.valueOf(value)
        .setScale(decimals, RoundingMode.HALF_EVEN)
        .stripTrailingZeros()
        .toPlainString();
  }
}
