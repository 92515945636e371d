package dev.cairn.durability.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.DurabilityFailedException;
import dev.cairn.durability.FormatVersionException;
import dev.cairn.durability.log.DurabilityTestSupport;
import dev.cairn.durability.log.LogLayout;
import dev.cairn.durability.log.LogOptions;
import dev.cairn.durability.log.WriteAheadLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The two-slot superblock: round trips, alternation, torn writes (I8), damage, failures. */
class SuperblockTest {
  private static final Path DIR = Path.of("/pile");
  private static final Path FILE = DIR.resolve("pile.superblock");

  private final SimulatedDisk disk = new SimulatedDisk();

  SuperblockTest() throws IOException {
    disk.createDirectories(DIR);
  }

  private static byte[] bytes(int length, long seed) {
    byte[] b = new byte[length];
    new SplittableRandom(seed).nextBytes(b);
    return b;
  }

  @Test
  void create_write_read_roundTrip_withMonotonicEpochs() throws IOException {
    try (Superblock sb = Superblock.create(disk, FILE, 0, false, new byte[0])) {
      assertThat(sb.current().epoch()).isEqualTo(1);
      for (int i = 0; i < 5; i++) {
        Superblock.State written = sb.write(100L * i, i % 2 == 0, bytes(i * 10, i));
        assertThat(written.epoch()).isEqualTo(2 + i);
        assertThat(sb.current()).isEqualTo(written);
        assertThat(Superblock.read(disk, FILE)).isEqualTo(written);
      }
    }
    try (Superblock sb = Superblock.open(disk, FILE)) {
      assertThat(sb.current().checkpointLsn()).isEqualTo(400);
      assertThat(sb.current().cleanShutdown()).isTrue();
      assertThat(sb.write(500, false, new byte[0]).epoch()).isEqualTo(7);
    }
  }

  @Test
  void writes_alternateBetweenTheTwoSlots() throws IOException {
    try (Superblock sb = Superblock.create(disk, FILE, 0, false, new byte[0])) {
      sb.write(8, false, new byte[0]); // slot 1
      byte[] image = disk.currentContent(FILE);
      ByteBuffer b = ByteBuffer.wrap(image).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      assertThat(b.getLong(SuperblockLayout.EPOCH_OFFSET)).isEqualTo(1);
      assertThat(b.getLong(SuperblockLayout.SLOT_BYTES + SuperblockLayout.EPOCH_OFFSET))
          .isEqualTo(2);
      sb.write(16, false, new byte[0]); // slot 0 again
      b = ByteBuffer.wrap(disk.currentContent(FILE)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      assertThat(b.getLong(SuperblockLayout.EPOCH_OFFSET)).isEqualTo(3);
    }
  }

  @Test
  void payload_upToTheMaximumFits_oneByteMoreIsRefused() throws IOException {
    try (Superblock sb = Superblock.create(disk, FILE, 0, false, new byte[0])) {
      byte[] max = bytes(SuperblockLayout.MAX_PAYLOAD_BYTES, 1);
      sb.write(1, false, max);
      assertThat(Superblock.read(disk, FILE).payload()).isEqualTo(max);
      assertThatThrownBy(() -> sb.write(2, false, new byte[SuperblockLayout.MAX_PAYLOAD_BYTES + 1]))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "payload larger than a superblock slot: payloadBytes=4057 maxPayloadBytes=4056");
      assertThat(sb.current().checkpointLsn()).isEqualTo(1);
    }
  }

  @Test
  void crashAtAnyPointOfAWrite_leavesTheOldOrTheNewState() throws IOException {
    long seed = DurabilityTestSupport.seed("superblock crashAtAnyPointOfAWrite");
    SplittableRandom random = new SplittableRandom(seed);
    int sawOld = 0;
    int sawNew = 0;
    for (int round = 0; round < 300; round++) {
      SimulatedDisk d = new SimulatedDisk();
      d.createDirectories(DIR);
      List<Superblock.State> states = new ArrayList<>();
      try (Superblock sb = Superblock.create(d, FILE, 0, false, bytes(3, round))) {
        states.add(sb.current());
        for (int i = 0; i < random.nextInt(4); i++) {
          states.add(sb.write(i + 1, false, bytes(random.nextInt(4000), round + i)));
        }
        // crash somewhere inside the next write (operation 1: the slot write; 2: the force)
        d.crashAtOperation(d.operationCount() + 1 + random.nextInt(2), random.nextLong());
        assertThatThrownBy(() -> sb.write(99, true, bytes(random.nextInt(4000), 9)))
            .isInstanceOf(DurabilityFailedException.class);
      }
      d.reboot();
      Superblock.State after = Superblock.read(d, FILE);
      Superblock.State old = states.getLast();
      if (after.equals(old)) {
        sawOld++;
      } else {
        assertThat(after.checkpointLsn()).isEqualTo(99);
        assertThat(after.epoch()).isEqualTo(old.epoch() + 1);
        sawNew++;
      }
      // the next write after the crash never destroys the state that was read
      try (Superblock sb = Superblock.open(d, FILE)) {
        sb.write(123, false, new byte[0]);
      }
      assertThat(Superblock.read(d, FILE).checkpointLsn()).isEqualTo(123);
    }
    assertThat(sawOld).isPositive();
    assertThat(sawNew).isPositive();
  }

  @Test
  void tornNewestSlot_fallsBackToTheOlderSlot() throws IOException {
    Superblock.State older;
    try (Superblock sb = Superblock.create(disk, FILE, 0, false, new byte[0])) {
      older = sb.write(10, false, bytes(100, 1)); // slot 1
      sb.write(20, false, bytes(100, 2)); // slot 0, newest
    }
    corrupt(SuperblockLayout.PAYLOAD_OFFSET + 50, (byte) 0x5A); // inside slot 0's payload
    assertThat(Superblock.read(disk, FILE)).isEqualTo(older);
    // and the next write goes to the damaged slot, keeping the good one
    try (Superblock sb = Superblock.open(disk, FILE)) {
      assertThat(sb.write(30, false, new byte[0]).epoch()).isEqualTo(older.epoch() + 1);
    }
    assertThat(Superblock.read(disk, FILE).checkpointLsn()).isEqualTo(30);
  }

  @Test
  void bothSlotsBad_isCorruptFileException_namingTheFile() throws IOException {
    try (Superblock sb = Superblock.create(disk, FILE, 0, false, new byte[0])) {
      sb.write(10, false, new byte[0]);
    }
    corrupt(SuperblockLayout.EPOCH_OFFSET, (byte) 1);
    corrupt(SuperblockLayout.SLOT_BYTES + SuperblockLayout.EPOCH_OFFSET, (byte) 1);
    assertThatThrownBy(() -> Superblock.read(disk, FILE))
        .isInstanceOfSatisfying(
            CorruptFileException.class, e -> assertThat(e.file()).isEqualTo(FILE))
        .hasMessageContaining("neither superblock slot is valid")
        .hasMessageContaining("checksum mismatch");
  }

  @Test
  void anotherVersion_isFormatVersionException() throws IOException {
    try (Superblock sb = Superblock.create(disk, FILE, 0, false, new byte[0])) {
      sb.write(10, false, new byte[0]);
    }
    // a slot of a newer Cairn: its checksum holds over the other version
    corrupt(SuperblockLayout.SLOT_BYTES + SuperblockLayout.VERSION_OFFSET, (byte) 2);
    resealSlot(1, 0);
    assertThatThrownBy(() -> Superblock.read(disk, FILE))
        .isInstanceOfSatisfying(
            FormatVersionException.class,
            e -> {
              assertThat(e.actual()).isEqualTo(3); // 1 ^ 2
              assertThat(e.supported()).isEqualTo(1);
            })
        .hasMessageContaining("newer Cairn");
  }

  @Test
  void anotherKindOfFile_isFormatVersionException_sayingWhatItIs() throws IOException {
    WriteAheadLog.open(
            disk,
            DIR,
            LogOptions.builder().fileBytes(8192).fileCount(2).build(),
            0,
            (a, b, c, d) -> {})
        .close();
    Path logFile = DIR.resolve(LogLayout.fileName(0));
    // a log file is 8 KiB of which the first page is its header and the second is zero;
    // give the second page a log header too, so that both "slots" say "write-ahead log"
    byte[] header = java.util.Arrays.copyOf(disk.currentContent(logFile), 4096);
    try (FileHandle h = disk.open(logFile, FileLayer.OpenMode.READ_WRITE)) {
      h.write(ByteBuffer.wrap(header), 4096);
      h.force();
    }
    assertThatThrownBy(() -> Superblock.read(disk, logFile))
        .isInstanceOf(FormatVersionException.class)
        .hasMessageContaining("a Cairn write-ahead log file");
  }

  @Test
  void missingFile_isNoSuchFile() {
    assertThatThrownBy(() -> Superblock.read(disk, FILE)).isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void failedForce_failsTheSuperblockForGood_keepingTheLastDurableState() throws IOException {
    try (Superblock sb = Superblock.create(disk, FILE, 0, false, new byte[0])) {
      Superblock.State good = sb.write(10, false, new byte[0]);
      disk.failNextForce(FILE, 1);
      assertThatThrownBy(() -> sb.write(20, false, new byte[0]))
          .isInstanceOf(DurabilityFailedException.class)
          .hasRootCauseMessage("Input/output error (simulated fsync failure of " + FILE + ")");
      assertThatThrownBy(() -> sb.write(30, false, new byte[0]))
          .isInstanceOf(DurabilityFailedException.class)
          .hasRootCauseMessage("Input/output error (simulated fsync failure of " + FILE + ")");
      assertThat(sb.current()).isEqualTo(good);
    }
  }

  @Test
  void createOnAFullDisk_throwsIOException_andLeavesNoFileUnderTheName() throws IOException {
    disk.setCapacityBytes(4096);
    assertThatThrownBy(() -> Superblock.create(disk, FILE, 0, false, new byte[0]))
        .isInstanceOf(IOException.class)
        .hasMessage("No space left on device");
    assertThat(disk.exists(FILE)).isFalse();
  }

  @Test
  void aDamagedVersionByte_isAnInvalidSlot_andTheOtherSlotServes() throws IOException {
    try (Superblock sb = Superblock.create(disk, FILE, 0, false, new byte[0])) {
      sb.write(10, false, new byte[0]);
    }
    long newest = Superblock.read(disk, FILE).checkpointLsn();
    // damage the version of each slot in turn: the checksum no longer holds, so the slot is
    // damage, not a newer format, and the other slot serves
    for (int slot = 0; slot < 2; slot++) {
      long at = slot * (long) SuperblockLayout.SLOT_BYTES + SuperblockLayout.VERSION_OFFSET;
      corrupt(at, (byte) 2);
      assertThat(Superblock.read(disk, FILE).checkpointLsn()).isIn(0L, newest);
      corrupt(at, (byte) 2); // repaired
    }
  }

  /** Recomputes the checksum of slot {@code slot} (payload of {@code payloadLength} bytes). */
  private void resealSlot(int slot, int payloadLength) throws IOException {
    byte[] image = disk.currentContent(FILE);
    int start = slot * SuperblockLayout.SLOT_BYTES;
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(image, start, SuperblockLayout.CRC_OFFSET);
    crc.update(image, start + SuperblockLayout.PAYLOAD_OFFSET, payloadLength);
    ByteBuffer value = ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    value.putInt(0, (int) crc.getValue());
    try (FileHandle h = disk.open(FILE, FileLayer.OpenMode.READ_WRITE)) {
      h.write(value, start + SuperblockLayout.CRC_OFFSET);
      h.force();
    }
  }

  private void corrupt(long offset, byte xor) throws IOException {
    byte[] image = disk.currentContent(FILE);
    try (FileHandle h = disk.open(FILE, FileLayer.OpenMode.READ_WRITE)) {
      h.write(ByteBuffer.wrap(new byte[] {(byte) (image[(int) offset] ^ xor)}), offset);
      h.force();
    }
  }

  @Test
  void open_afterAWriteKilledBeforeItsForce_makesWhatItReadDurable() throws IOException {
    for (long seed = 0; seed < 20; seed++) {
      SimulatedDisk d = new SimulatedDisk();
      d.createDirectories(DIR);
      try (Superblock sb = Superblock.create(d, FILE, 0, false, new byte[0])) {
        sb.write(10, false, new byte[0]);
        d.killAtOperation(d.operationCount() + 2, seed); // the slot is written, its force is not
        assertThatThrownBy(() -> sb.write(20, false, new byte[0]))
            .isInstanceOf(DurabilityFailedException.class);
      }
      long seen;
      try (Superblock again = Superblock.open(d, FILE)) {
        seen = again.current().checkpointLsn(); // the page cache still has the new slot
      }
      assertThat(seen).isEqualTo(20);
      d.powerLoss(seed);
      d.reboot();
      assertThat(Superblock.read(d, FILE).checkpointLsn()).as("seed %d", seed).isEqualTo(seen);
    }
  }
}
