package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.codec.Utf8;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A {@code byte[]} key's encoding is its bytes, whatever its length: short keys are copied a word
 * at a time, long ones in bulk, and both must leave exactly the key's bytes in the buffer. A {@code
 * String} key's is its bytes as {@link Utf8#encode(String)} gives them, through the thread's
 * scratch array or, for a long key, an array of its own.
 */
class KeyCodecTest {

  @Test
  void aByteArrayKey_ofEveryLengthAroundTheWordCopy_isItsBytes() {
    SplittableRandom random = new SplittableRandom(42);
    KeyCodec.KeyBuffer buffer = new KeyCodec.KeyBuffer();
    for (int length = 0; length <= 70; length++) {
      byte[] key = new byte[length];
      random.nextBytes(key);
      buffer.segment().fill((byte) 0x5A); // what an earlier, longer key left
      int written = KeyCodec.BytesKeys.INSTANCE.encode(key, buffer);

      assertThat(written).isEqualTo(length);
      byte[] back = buffer.segment().asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);
      assertThat(back).as("length %d", length).isEqualTo(key);
      assertThat(KeyCodec.BytesKeys.INSTANCE.decode(MemorySegment.ofArray(back), 0, length))
          .isEqualTo(key);
    }
  }

  @Test
  void aStringKey_isItsUtf8_throughTheScratchArrayOrPastIt() {
    SplittableRandom random = new SplittableRandom(7);
    KeyCodec.KeyBuffer buffer = new KeyCodec.KeyBuffer();
    char[] alphabet = {'a', 'Z', '0', ':', '\u00e9', '\u0416', '\u20ac', '\ud83d', '\ude00'};
    int longest = Utf8Scratch.MAX_BYTES / 3 + 40; // past the scratch array too
    for (int length = 0; length <= longest; length += 1 + length / 8) {
      for (int round = 0; round < 20; round++) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) { // unpaired surrogates too
          chars[i] = alphabet[random.nextInt(round < 10 ? 4 : alphabet.length)];
        }
        String key = new String(chars);
        buffer.segment().fill((byte) 0x5A);
        int written = KeyCodec.StringKeys.INSTANCE.encode(key, buffer);

        byte[] expected = Utf8.encode(key);
        assertThat(written).as("%s", key).isEqualTo(expected.length);
        byte[] back = buffer.segment().asSlice(0, written).toArray(ValueLayout.JAVA_BYTE);
        assertThat(back).as("%s", key).isEqualTo(expected);
        assertThat(KeyCodec.StringKeys.INSTANCE.decode(MemorySegment.ofArray(back), 0, written))
            .isEqualTo(key);
      }
    }
  }
}
