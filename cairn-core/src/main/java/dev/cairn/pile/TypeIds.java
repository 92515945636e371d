package dev.cairn.pile;

import dev.cairn.codec.CodecRegistry;
import dev.cairn.codec.CorruptValueException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The codec type id that opens an object payload: a varint of one byte (ids under 128) or two.
 *
 * <pre>
 * ObjectPayload --> TypeId:varint(1..2 bytes, little-endian base 128), Encoded[length - idBytes]
 * </pre>
 */
final class TypeIds {
  private TypeIds() {}

  static int length(int typeId) {
    return typeId < 0x80 ? 1 : 2;
  }

  static void write(MemorySegment payload, int typeId) {
    if (typeId < 0x80) {
      payload.set(ValueLayout.JAVA_BYTE, 0, (byte) typeId);
    } else {
      payload.set(ValueLayout.JAVA_BYTE, 0, (byte) (0x80 | (typeId & 0x7F)));
      payload.set(ValueLayout.JAVA_BYTE, 1, (byte) (typeId >>> 7));
    }
  }

  /** Reads a type id, checking it against the payload's bounds and the id range. */
  static int read(MemorySegment payload) {
    if (payload.byteSize() < 1) {
      throw new CorruptValueException("object payload is empty: no type id");
    }
    int first = payload.get(ValueLayout.JAVA_BYTE, 0) & 0xFF;
    if (first < 0x80) {
      return first;
    }
    if (payload.byteSize() < 2) {
      throw new CorruptValueException("object payload truncated inside its type id");
    }
    int id = (first & 0x7F) | ((payload.get(ValueLayout.JAVA_BYTE, 1) & 0xFF) << 7);
    if (id > CodecRegistry.MAX_TYPE_ID || id < 0x80) {
      throw new CorruptValueException("type id out of range: " + id);
    }
    return id;
  }
}
