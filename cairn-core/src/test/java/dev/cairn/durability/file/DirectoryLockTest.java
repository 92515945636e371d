package dev.cairn.durability.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.durability.DirectoryLockedException;
import dev.cairn.process.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One owner per directory (design note 11): in this JVM and across processes. */
class DirectoryLockTest {
  @TempDir Path dir;

  @Test
  void secondOpenInThisJvm_isRefused_untilTheFirstCloses() throws Exception {
    try (DirectoryLock first = DirectoryLock.acquire(dir)) {
      assertThat(first.isHeld()).isTrue();
      assertThatThrownBy(() -> DirectoryLock.acquire(dir))
          .isInstanceOfSatisfying(
              DirectoryLockedException.class, e -> assertThat(e.directory()).isEqualTo(dir))
          .hasMessageContaining("already open in this JVM");
    }
    try (DirectoryLock again = DirectoryLock.acquire(dir)) {
      assertThat(again.isHeld()).isTrue();
    }
  }

  @Test
  void anotherProcess_isRefused_andTheMessageNamesTheHoldersPid() throws Exception {
    Process child =
        new ProcessBuilder(
                ChildJvm.command(
                    LockHolderMain.class,
                    List.of(FileLayer.class),
                    List.of(),
                    List.of(dir.toString())))
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("locked");
      assertThatThrownBy(() -> DirectoryLock.acquire(dir))
          .isInstanceOf(DirectoryLockedException.class)
          .hasMessageContaining("in use by another process")
          .hasMessageContaining("pid=" + child.pid());
    } finally {
      child.getOutputStream().close();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    // the lock went away with the process
    try (DirectoryLock mine = DirectoryLock.acquire(dir)) {
      assertThat(mine.isHeld()).isTrue();
    }
  }

  @Test
  void theHoldersRecord_replacesALongerOrShorterOne_whole() throws Exception {
    Path file = dir.resolve(DirectoryLock.LOCK_FILE_NAME);
    String pid = "pid=" + DirectoryLock.currentPid();
    for (String before : List.of("pid=1\n", "pid=" + "9".repeat(60) + "\n", "")) {
      Files.writeString(file, before, StandardCharsets.US_ASCII);
      try (DirectoryLock lock = DirectoryLock.acquire(dir)) {
        assertThat(lock.isHeld()).isTrue();
        assertThat(Files.size(file)).as("after %s", before).isEqualTo(DirectoryLock.RECORD_BYTES);
        assertThat(Files.readString(file, StandardCharsets.US_ASCII))
            .as("after %s", before)
            .isEqualTo(String.format("%-31s%n", pid).replace(System.lineSeparator(), "\n"));
      }
    }
  }
}
