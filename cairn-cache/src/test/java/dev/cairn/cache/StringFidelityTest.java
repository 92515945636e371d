package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Java string that is not valid Unicode (an unpaired surrogate: half an emoji, say, cut by a
 * substring) is a key of its own and a value kept as it was, as in any Java map: its bytes are not
 * {@code getBytes(UTF_8)}'s, which writes '?' for the surrogate and so would make "a\uD800",
 * "a\uDC00" and "a?" one key.
 */
class StringFidelityTest {
  @TempDir Path temp;

  private static final Map<String, String> ENTRIES =
      Map.of(
          "a\uD800", "high half: \uD83D",
          "a\uDC00", "low half: \uDE00",
          "a?", "a question mark",
          "a\uD83D\uDE00", "a whole emoji \uD83D\uDE00",
          "\uDE00\uD83D", "the halves the wrong way round: \uDE00\uD83D");

  @Test
  void stringsWithUnpairedSurrogates_areKeysOfTheirOwn_andValuesKeptAsTheyWere()
      throws IOException {
    try (Cache cache = Cache.open(temp.resolve("c"), CacheOptions.defaults())) {
      CacheTable<String, String> t = cache.table("t", String.class, String.class);
      ENTRIES.forEach(t::put);
      assertThat(t.size()).isEqualTo(ENTRIES.size());
      ENTRIES.forEach((k, v) -> assertThat(t.get(k)).as("key %s", k).isEqualTo(v));
      assertThat(t.get("a\uDBFF")).as("another half, never put").isNull();
    }
    try (Cache cache = Cache.open(temp.resolve("c"), CacheOptions.defaults())) {
      CacheTable<String, String> t = cache.table("t", String.class, String.class);
      Map<String, String> iterated = new HashMap<>();
      for (Map.Entry<String, String> e : t) {
        iterated.put(e.getKey(), e.getValue());
      }
      assertThat(iterated).as("keys and values after a reopen, by iteration").isEqualTo(ENTRIES);
      assertThat(t.remove("a\uD800")).isTrue();
      assertThat(t.get("a?")).isEqualTo("a question mark");
      assertThat(cache.verify()).isEqualTo(ENTRIES.size() - 1);
    }
  }

  /**
   * Keys and values of every length around the thread's scratch array ({@link Utf8Scratch}): those
   * it holds and those past it, each with accents, three-byte chars, emoji and lone surrogates,
   * replaced over one another, read back as they were.
   */
  @Test
  void stringsOfEveryLength_inAndPastTheScratchArray_readBackAsTheyWere() {
    SplittableRandom random = new SplittableRandom(11);
    char[] alphabet = {'a', 'Z', '\u00e9', '\u20ac', '\ud83d', '\ude00'};
    Map<String, String> model = new HashMap<>();
    try (Cache cache = Cache.offHeap(CacheOptions.defaults())) {
      CacheTable<String, String> t = cache.table("t", String.class, String.class);
      for (int length = 0; length <= Utf8Scratch.MAX_BYTES / 3 + 40; length += 1 + length / 16) {
        for (int round = 0; round < 3; round++) {
          String key = "k" + random.nextInt(200);
          char[] chars = new char[length];
          for (int i = 0; i < length; i++) {
            chars[i] = alphabet[random.nextInt(alphabet.length)];
          }
          String value = new String(chars);
          t.put(key, value);
          model.put(key, value);
          assertThat(t.get(key)).as("a value of %d chars", length).isEqualTo(value);
        }
      }
      model.forEach((k, v) -> assertThat(t.get(k)).as("key %s", k).isEqualTo(v));
      assertThat(t.size()).isEqualTo(model.size());
      assertThat(cache.verify()).isEqualTo(model.size());
    }
  }
}
