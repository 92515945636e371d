package dev.cairn.durability.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The {@link FileLayer} contract, run against every implementation (as Lucene's
 * BaseDirectoryTestCase): the simulated disk must behave like the real one whenever power stays on.
 */
abstract class FileLayerContractTest {

  /** The layer under test. */
  abstract FileLayer layer();

  /** An existing, empty directory of {@link #layer()}. */
  abstract Path directory() throws IOException;

  @Test
  void writeThenRead_returnsTheBytes_atAnyPosition() throws IOException {
    Path file = directory().resolve("a");
    try (FileHandle h = layer().open(file, FileLayer.OpenMode.CREATE_NEW)) {
      h.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), 0);
      h.write(MemorySegment.ofArray(new byte[] {9, 9}), 10);
      assertThat(h.size()).isEqualTo(12);
      ByteBuffer back = ByteBuffer.allocate(20);
      assertThat(h.read(back, 0)).isEqualTo(12);
      assertThat(back.array()).startsWith(1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 9, 9);
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment target = arena.allocate(4);
        assertThat(h.read(target, 9)).isEqualTo(3);
        assertThat(target.get(ValueLayout.JAVA_BYTE, 1)).isEqualTo((byte) 9);
      }
      h.force();
    }
  }

  @Test
  void preallocate_growsWithZeros_andTruncateShrinks() throws IOException {
    Path file = directory().resolve("b");
    try (FileHandle h = layer().open(file, FileLayer.OpenMode.CREATE)) {
      h.write(ByteBuffer.wrap(new byte[] {7}), 0);
      h.preallocate(3 << 20);
      assertThat(h.size()).isEqualTo(3 << 20);
      ByteBuffer tail = ByteBuffer.allocate(8);
      h.read(tail, (3 << 20) - 8);
      assertThat(tail.array()).containsOnly(0);
      h.preallocate(10); // never shrinks
      assertThat(h.size()).isEqualTo(3 << 20);
      h.truncate(1);
      assertThat(h.size()).isEqualTo(1);
      ByteBuffer first = ByteBuffer.allocate(1);
      h.read(first, 0);
      assertThat(first.get(0)).isEqualTo((byte) 7);
    }
  }

  @Test
  void reserve_growsToReadAsZeros_keepsWhatWasWritten_andNeverShrinks() throws IOException {
    Path file = directory().resolve("r");
    try (FileHandle h = layer().open(file, FileLayer.OpenMode.CREATE)) {
      h.write(ByteBuffer.wrap(new byte[] {9}), 0);
      h.reserve(5 << 20);
      assertThat(h.size()).isEqualTo(5 << 20);
      ByteBuffer middle = ByteBuffer.allocate(4096);
      h.read(middle, 2 << 20);
      assertThat(middle.array()).containsOnly(0);
      h.write(ByteBuffer.wrap(new byte[] {5, 6}), (5 << 20) - 2); // into the reserved range
      h.force();
      h.reserve(10); // never shrinks
      assertThat(h.size()).isEqualTo(5 << 20);
      ByteBuffer ends = ByteBuffer.allocate(2);
      h.read(ends, (5 << 20) - 2);
      assertThat(ends.array()).containsExactly(5, 6);
      ByteBuffer first = ByteBuffer.allocate(1);
      h.read(first, 0);
      assertThat(first.get(0)).isEqualTo((byte) 9);
    }
  }

  @Test
  void openModes_enforceExistence() throws IOException {
    Path file = directory().resolve("c");
    assertThatThrownBy(() -> layer().open(file, FileLayer.OpenMode.READ_WRITE))
        .isInstanceOf(NoSuchFileException.class);
    layer().open(file, FileLayer.OpenMode.CREATE).close();
    assertThat(layer().exists(file)).isTrue();
    assertThatThrownBy(() -> layer().open(file, FileLayer.OpenMode.CREATE_NEW))
        .isInstanceOf(FileAlreadyExistsException.class);
    layer().open(file, FileLayer.OpenMode.READ).close();
  }

  @Test
  void renameReplacesTheTarget_deleteRemoves_listIsSorted() throws IOException {
    Path dir = directory();
    write(dir.resolve("x"), (byte) 1);
    write(dir.resolve("y"), (byte) 2);
    layer().rename(dir.resolve("x"), dir.resolve("y"));
    layer().syncDirectory(dir);
    assertThat(layer().exists(dir.resolve("x"))).isFalse();
    try (FileHandle h = layer().open(dir.resolve("y"), FileLayer.OpenMode.READ)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      h.read(b, 0);
      assertThat(b.get(0)).isEqualTo((byte) 1);
    }
    write(dir.resolve("a"), (byte) 3);
    assertThat(layer().list(dir)).containsExactly(dir.resolve("a"), dir.resolve("y"));
    layer().delete(dir.resolve("a"));
    layer().delete(dir.resolve("a")); // idempotent
    assertThat(layer().list(dir)).containsExactly(dir.resolve("y"));
  }

  private void write(Path file, byte value) throws IOException {
    try (FileHandle h = layer().open(file, FileLayer.OpenMode.CREATE)) {
      h.write(ByteBuffer.wrap(new byte[] {value}), 0);
      h.force();
    }
  }
}
