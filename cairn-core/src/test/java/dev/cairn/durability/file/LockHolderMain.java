package dev.cairn.durability.file;

import dev.cairn.durability.DirectoryLockedException;
import java.nio.file.Path;

/**
 * A second process for {@link DirectoryLockTest}: takes the lock on the directory given as the
 * argument, prints "locked" (or the exception), and holds it until its stdin closes.
 */
public final class LockHolderMain {
  private LockHolderMain() {}

  public static void main(String[] args) throws Exception {
    try (DirectoryLock lock = DirectoryLock.acquire(Path.of(args[0]))) {
      System.out.println(lock.isHeld() ? "locked" : "not held");
      System.out.flush();
      while (System.in.read() >= 0) {
        // hold the lock until the parent closes our stdin
      }
    } catch (DirectoryLockedException e) {
      System.out.println("refused: " + e.getMessage());
    }
  }
}
