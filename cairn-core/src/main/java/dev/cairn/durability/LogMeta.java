package dev.cairn.durability;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * The log's geometry, kept in the payload of {@code wal.meta} (a {@link Superblock}), whose epoch
 * is the log's epoch: {@code LogMeta --> FileBytes:u64, FileCount:u32}.
 */
record LogMeta(long fileBytes, int fileCount, long epoch) {

  byte[] payload() {
    return payload(fileBytes, fileCount);
  }

  static byte[] payload(long fileBytes, int fileCount) {
    ByteBuffer bytes =
        ByteBuffer.allocate(LogLayout.META_PAYLOAD_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    bytes.putLong(0, fileBytes).putInt(8, fileCount);
    return bytes.array();
  }

  static LogMeta of(Path file, Superblock.State state) {
    byte[] payload = state.payload();
    if (payload.length != LogLayout.META_PAYLOAD_BYTES) {
      throw new CorruptFileException(file, SuperblockLayout.PAYLOAD_OFFSET,
          "log meta payload is " + payload.length + " bytes, expected "
              + LogLayout.META_PAYLOAD_BYTES);
    }
    ByteBuffer bytes = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
    long fileBytes = bytes.getLong(0);
    int fileCount = bytes.getInt(8);
    if (fileBytes < LogLayout.MIN_FILE_BYTES
        || fileBytes % LogLayout.FILE_HEADER_BYTES != 0
        || fileCount < LogLayout.MIN_FILE_COUNT
        || fileCount > LogLayout.MAX_FILE_COUNT) {
      throw new CorruptFileException(file, SuperblockLayout.PAYLOAD_OFFSET,
          "log geometry out of range: fileBytes=" + fileBytes + " fileCount=" + fileCount);
    }
    if (state.epoch() > 0xFFFF_FFFFL - 1) {
      throw new CorruptFileException(file, SuperblockLayout.EPOCH_OFFSET,
          "log epoch " + state.epoch() + " exceeds the 32-bit record epoch");
    }
    return new LogMeta(fileBytes, fileCount, state.epoch());
  }

  static LogMeta read(FileLayer layer, Path directory) throws IOException {
    Path file = directory.resolve(LogLayout.META_FILE_NAME);
    return of(file, Superblock.read(layer, file));
  }
}
