package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.durability.log.LogLayout;
import dev.cairn.pile.PileDirectory.PileFile;
import dev.cairn.pile.PileDirectory.PileFile.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link PileDirectory#files}: a pile's files by kind, for tools that must not match names. */
class PileDirectoryFilesTest {
  @TempDir Path dir;

  @Test
  void files_listsEachKindAPileMakes_withSizes_inKindThenIndexOrder() throws IOException {
    try (Pile pile =
        Pile.open(
            dir,
            PileOptions.builder()
                .segmentBytes(1 << 20)
                .stripes(1)
                .durability(Durability.SYNC)
                .logFileBytes(1 << 20)
                .logFileCount(2)
                .build())) {
      byte[] value = new byte[4000];
      for (int i = 0; i < 600; i++) { // 2.4 MB: several segments of 1 MiB
        pile.put(value);
      }
      pile.checkpoint();
    }
    Files.writeString(dir.resolve("notes.txt"), "not the pile's");
    Files.writeString(dir.resolve(PileFiles.LOG_DIRECTORY).resolve("notes.txt"), "nor this");

    List<PileFile> files = PileDirectory.files(dir);

    assertThat(files)
        .extracting(PileFile::kind)
        .contains(
            Kind.SUPERBLOCK,
            Kind.CHECKPOINT_METADATA,
            Kind.TYPE_CATALOG,
            Kind.SEGMENT,
            Kind.LOG_METADATA,
            Kind.LOG,
            Kind.LOCK);
    assertThat(files).extracting(PileFile::kind).isSorted();
    assertThat(files)
        .extracting(file -> file.path().getFileName().toString())
        .doesNotContain("notes.txt");
    for (PileFile file : files) {
      assertThat(file.bytes()).as(file.path().toString()).isEqualTo(Files.size(file.path()));
    }
    assertThat(files)
        .filteredOn(file -> file.kind() == Kind.SUPERBLOCK)
        .singleElement()
        .extracting(PileFile::path)
        .isEqualTo(dir.resolve(PileFiles.SUPERBLOCK));
    List<Path> segments =
        files.stream().filter(file -> file.kind() == Kind.SEGMENT).map(PileFile::path).toList();
    assertThat(segments).hasSizeGreaterThan(2);
    for (int i = 0; i < segments.size(); i++) {
      assertThat(segments.get(i)).isEqualTo(PileFiles.segmentFile(dir, i));
    }
    List<PileFile> logFiles = files.stream().filter(file -> file.kind() == Kind.LOG).toList();
    assertThat(logFiles)
        .extracting(PileFile::path)
        .containsExactly(
            dir.resolve(PileFiles.LOG_DIRECTORY).resolve(LogLayout.fileName(0)),
            dir.resolve(PileFiles.LOG_DIRECTORY).resolve(LogLayout.fileName(1)));
  }

  @Test
  void files_ofADirectoryWithoutAPile_isEmpty_andOfAMissingOne_throws() throws IOException {
    Files.writeString(dir.resolve("seg-1.dat"), "too few digits: not a segment's name");

    assertThat(PileDirectory.files(dir)).isEmpty();
    assertThatThrownBy(() -> PileDirectory.files(dir.resolve("absent")))
        .isInstanceOf(NoSuchFileException.class);
  }
}
