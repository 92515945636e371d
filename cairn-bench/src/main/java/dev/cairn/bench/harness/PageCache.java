package dev.cairn.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Empties Linux's page cache, so that the next reads of a file come from the disk, as after a
 * reboot: {@code sync}, then {@code 3} into {@code /proc/sys/vm/drop_caches} (clean pages, dentries
 * and inodes). Only root may write that file; elsewhere, or off Linux, {@link #drop} says it could
 * not, and the caller reports its reads as warm.
 *
 * <p>It drops the whole machine's cache, not just the bench's files: other programs on the machine
 * re-read their files afterwards. That is the price of a cold read without a reboot.
 */
public final class PageCache {
  private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");
  private static final long SYNC_TIMEOUT_SECONDS = 120;

  private PageCache() {}

  /**
   * Writes dirty pages back and drops the cache.
   *
   * @return whether the cache was dropped
   */
  public static boolean drop() throws InterruptedException {
    // dirty pages are not dropped, only written back: sync first, or they would stay cached
    if (!sync()) {
      return false;
    }
    try {
      Files.writeString(DROP_CACHES, "3\n", StandardCharsets.US_ASCII);
      return true;
    } catch (IOException | SecurityException notAllowed) {
      return false;
    }
  }

  private static boolean sync() throws InterruptedException {
    try {
      Process sync = new ProcessBuilder("sync").redirectErrorStream(true).start();
      sync.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      return sync.waitFor(SYNC_TIMEOUT_SECONDS, TimeUnit.SECONDS) && sync.exitValue() == 0;
    } catch (IOException noSyncCommand) {
      return false;
    }
  }
}
