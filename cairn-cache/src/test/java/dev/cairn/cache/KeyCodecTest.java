package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A {@code byte[]} key's encoding is its bytes, whatever its length: short keys are copied a word
 * at a time, long ones in bulk, and both must leave exactly the key's bytes in the buffer.
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
}
