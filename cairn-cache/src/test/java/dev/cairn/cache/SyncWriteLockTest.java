package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cache.index.SlotLayout;
import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.FileLayer.OpenMode;
import dev.cairn.durability.file.SimulatedDisk;
import dev.cairn.pile.Durability;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A SYNC write waits for its force holding no lock of the cache's (OffHeapTable T6): while a put
 * waits for a force that does not come, a put and a remove of other keys that share its key lock
 * stripe are applied, and every write is durable once the forces resume.
 */
class SyncWriteLockTest {
  private static final Path DIR = Path.of("/cache");

  @Test
  void aWriteWaitingForItsForce_holdsNoKeyLock() throws Exception {
    GatedDisk disk = new GatedDisk(new SimulatedDisk());
    try (Cache cache =
        CacheFactory.open(
            disk,
            DIR,
            CacheOptions.builder()
                .pile(PileOptions.builder().durability(Durability.SYNC).build())
                .build())) {
      LongCacheTable<String> table = cache.longTable("t", String.class);
      @SuppressWarnings("unchecked")
      OffHeapTable<Long, String> inner = (OffHeapTable<Long, String>) table.boxed();
      long first = 1;
      long second = first + 1;
      while (lockOf(inner, second) != lockOf(inner, first)) {
        second++;
      }
      long third = second + 1;
      while (lockOf(inner, third) != lockOf(inner, first)) {
        third++;
      }
      // each key's shard gets its region now (a first insert into a shard grows it, a write of
      // its own that waits for its force too)
      table.put(first, "earlier");
      table.put(second, "earlier");
      table.put(third, "to remove");
      table.remove(first);
      table.remove(second);
      long key = second;
      long gone = third;
      // threads of their own: the common pool may have one thread on a small machine
      ExecutorService threads = Executors.newFixedThreadPool(3);
      disk.closeGate();
      CompletableFuture<PutResult> waiting;
      CompletableFuture<PutResult> sharing;
      CompletableFuture<Boolean> removing;
      try {
        waiting =
            CompletableFuture.supplyAsync(() -> table.put(first, "waits for its force"), threads);
        disk.awaitBlockedForce();
        sharing = CompletableFuture.supplyAsync(() -> table.put(key, "shares the lock"), threads);
        removing = CompletableFuture.supplyAsync(() -> table.remove(gone), threads);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((table.get(second) == null || table.get(third) != null)
            && System.nanoTime() < deadline) {
          Thread.sleep(1);
        }
        assertThat(table.get(second)).as("applied while the first put waits").isNotNull();
        assertThat(table.get(third)).as("removed while the first put waits").isNull();
        assertThat(waiting).as("no force has come").isNotDone();
      } finally {
        disk.openGate(); // else the close would wait for a force for ever
      }
      assertThat(waiting.get(30, TimeUnit.SECONDS)).isEqualTo(PutResult.INSERTED);
      assertThat(sharing.get(30, TimeUnit.SECONDS)).isEqualTo(PutResult.INSERTED);
      assertThat(removing.get(30, TimeUnit.SECONDS)).isTrue();
      threads.shutdown();
      assertThat(table.get(first)).isEqualTo("waits for its force");
      assertThat(table.size()).isEqualTo(2);
    }
  }

  private static Object lockOf(OffHeapTable<Long, String> table, long key) {
    return table.keyLock(SlotLayout.hash32(table.encodeLong(key, Scratch.get())));
  }

  /** A file layer whose forces wait while its gate is closed. */
  private static final class GatedDisk implements FileLayer {
    private final SimulatedDisk disk;
    private final Object gate = new Object();
    private boolean closed;
    private final AtomicInteger blocked = new AtomicInteger();

    GatedDisk(SimulatedDisk disk) {
      this.disk = disk;
    }

    void closeGate() {
      synchronized (gate) {
        closed = true;
      }
    }

    void openGate() {
      synchronized (gate) {
        closed = false;
        gate.notifyAll();
      }
    }

    void awaitBlockedForce() throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (blocked.get() == 0) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("no force came to the gate");
        }
        Thread.sleep(1);
      }
    }

    private void pass() throws IOException {
      synchronized (gate) {
        if (!closed) {
          return;
        }
        blocked.incrementAndGet();
        try {
          while (closed) {
            gate.wait();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted at the gate", e);
        } finally {
          blocked.decrementAndGet();
        }
      }
    }

    @Override
    public FileHandle open(Path file, OpenMode mode) throws IOException {
      FileHandle handle = disk.open(file, mode);
      return new FileHandle() {
        @Override
        public Path path() {
          return handle.path();
        }

        @Override
        public long size() throws IOException {
          return handle.size();
        }

        @Override
        public void write(ByteBuffer source, long position) throws IOException {
          handle.write(source, position);
        }

        @Override
        public void write(MemorySegment source, long position) throws IOException {
          handle.write(source, position);
        }

        @Override
        public int read(ByteBuffer target, long position) throws IOException {
          return handle.read(target, position);
        }

        @Override
        public long read(MemorySegment target, long position) throws IOException {
          return handle.read(target, position);
        }

        @Override
        public void force() throws IOException {
          pass();
          handle.force();
        }

        @Override
        public MemorySegment mapPrivate(long sizeBytes, Arena arena) throws IOException {
          return handle.mapPrivate(sizeBytes, arena);
        }

        @Override
        public void truncate(long sizeBytes) throws IOException {
          handle.truncate(sizeBytes);
        }

        @Override
        public void preallocate(long sizeBytes) throws IOException {
          handle.preallocate(sizeBytes);
        }

        @Override
        public void reserve(long sizeBytes) throws IOException {
          handle.reserve(sizeBytes);
        }

        @Override
        public void close() throws IOException {
          handle.close();
        }
      };
    }

    @Override
    public boolean exists(Path path) throws IOException {
      return disk.exists(path);
    }

    @Override
    public boolean isDirectory(Path path) throws IOException {
      return disk.isDirectory(path);
    }

    @Override
    public List<Path> list(Path directory) throws IOException {
      return disk.list(directory);
    }

    @Override
    public void createDirectories(Path directory) throws IOException {
      disk.createDirectories(directory);
    }

    @Override
    public void delete(Path file) throws IOException {
      disk.delete(file);
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
      disk.rename(source, target);
    }

    @Override
    public void syncDirectory(Path directory) throws IOException {
      disk.syncDirectory(directory);
    }
  }
}
