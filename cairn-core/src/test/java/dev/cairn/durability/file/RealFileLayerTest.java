package dev.cairn.durability.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The FileLayer contract on the operating system's files, and how it maps them. */
class RealFileLayerTest extends FileLayerContractTest {
  @TempDir Path temp;

  @Override
  FileLayer layer() {
    return RealFileLayer.INSTANCE;
  }

  @Override
  Path directory() {
    return temp;
  }

  @Test
  void testsRunWithNativeAccess_soMappingsAreHandedOutAsPlainNativeSegments() {
    // the build passes --enable-native-access (pom.xml argLine); without it the fast path below
    // would go untested here (half of the kill -9 children run without it and cover the other path)
    assertThat(RealFileLayer.NATIVE_ACCESS).isTrue();
  }

  @Test
  void reserve_usesFallocateHere_andAMissingFileIsAnIoErrorNamingIt() throws Exception {
    // Linux with native access (this build's tests): reserve takes the fallocate path
    assertThat(NativeFiles.available()).isTrue();
    Path file = temp.resolve("reserved");
    java.nio.file.Files.write(file, new byte[] {1, 2, 3});
    assertThat(NativeFiles.allocate(file, 64L << 20)).as("ext4 and tmpfs have fallocate").isTrue();
    assertThat(java.nio.file.Files.size(file)).isEqualTo(64L << 20);
    byte[] head = new byte[8];
    try (var in = java.nio.file.Files.newInputStream(file)) {
      assertThat(in.read(head)).isEqualTo(8);
    }
    assertThat(head).containsExactly(1, 2, 3, 0, 0, 0, 0, 0);

    Path missing = temp.resolve("no-such-file");
    assertThatThrownBy(() -> NativeFiles.allocate(missing, 4096))
        .isInstanceOf(java.io.IOException.class)
        .hasMessageContaining(missing.toString());
    assertThat(missing).doesNotExist();
  }

  @Test
  void mapPrivate_isANativeSegmentOverTheFile_boundsCheckedAndPrivate() throws Exception {
    Path file = temp.resolve("mapped");
    byte[] content = new byte[8192];
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) (i * 31);
    }
    try (FileHandle handle = layer().open(file, FileLayer.OpenMode.CREATE_NEW)) {
      handle.write(ByteBuffer.wrap(content), 0);
      Arena arena = Arena.ofShared();
      MemorySegment memory = handle.mapPrivate(content.length, arena);

      assertThat(memory.isNative()).isTrue();
      assertThat(memory.isMapped()).isFalse();
      assertThat(memory.byteSize()).isEqualTo(content.length);
      assertThat(memory.toArray(ValueLayout.JAVA_BYTE)).isEqualTo(content);
      assertThatThrownBy(() -> memory.get(ValueLayout.JAVA_BYTE, content.length))
          .isInstanceOf(IndexOutOfBoundsException.class);

      memory.set(ValueLayout.JAVA_BYTE, 0, (byte) 0x7f); // private: the file keeps its byte
      ByteBuffer first = ByteBuffer.allocate(1);
      handle.read(first, 0);
      assertThat(first.get(0)).isEqualTo(content[0]);

      arena.close(); // unmaps: the view must refuse access, not fault
      assertThatThrownBy(() -> memory.get(ValueLayout.JAVA_BYTE, 0))
          .isInstanceOf(IllegalStateException.class);
    }
  }
}
