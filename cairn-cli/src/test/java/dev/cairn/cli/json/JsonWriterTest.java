package dev.cairn.cli.json;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsonWriterTest {

  @Test
  void writer_nestsObjectsWithCommasAndIndents() {
    String json =
        new JsonWriter()
            .beginObject()
            .field("n", 3)
            .beginObject("empty")
            .endObject()
            .beginObject("inner")
            .field("ok", true)
            .nullField("none")
            .endObject()
            .field("x", 0.1234, 2)
            .endObject()
            .toString();

    assertThat(json)
        .isEqualTo(
            """
            {
              "n": 3,
              "empty": {},
              "inner": {
                "ok": true,
                "none": null
              },
              "x": 0.12
            }
            """);
  }

  @Test
  void quote_escapesQuotesBackslashesAndControlCharacters() {
    assertThat(JsonWriter.quote("a\"b\\c\nd\u0001")).isEqualTo("\"a\\\"b\\\\c\\nd\\u0001\"");
  }

  @Test
  void field_writesNullForANumberJsonCannotHold() {
    String json = new JsonWriter().beginObject().field("x", Double.NaN, 1).endObject().toString();

    assertThat(json).contains("\"x\": null");
  }
}
