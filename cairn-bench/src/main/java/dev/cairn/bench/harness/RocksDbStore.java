package dev.cairn.bench.harness;

import dev.cairn.pile.Durability;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * RocksDB under the load workload, for {@code --reopen}'s restart beside the pile's: values of kind
 * bytes or string (a string as its UTF-8, the bytes the pile stores), keyed by the value's index as
 * 8 bytes big-endian. Default options, as a user would start. With durability none the writes skip
 * RocksDB's write-ahead log (the pile's none keeps no log either), otherwise they go through it
 * unsynced; either way {@link #close} flushes the memtable and waits, so that the data is in its
 * table files and a reopen replays nothing, as after the pile's closing checkpoint.
 */
final class RocksDbStore implements BenchStore {
  private static final ThreadLocal<byte[]> KEY = ThreadLocal.withInitial(() -> new byte[8]);

  private final Path directory;
  private final Options options;
  private final WriteOptions writes;
  private final RocksDB db;
  private boolean closed;

  private RocksDbStore(Path directory, Options options, WriteOptions writes, RocksDB db) {
    this.directory = directory;
    this.options = options;
    this.writes = writes;
    this.db = db;
  }

  /**
   * @throws StoreUnavailableException if RocksDB's native library cannot load here
   * @throws IOException if the database cannot be opened in {@code directory}
   */
  static RocksDbStore open(Path directory, BenchConfig config)
      throws StoreUnavailableException, IOException {
    RocksDbCommitStore.loadLibrary();
    Files.createDirectories(directory);
    Options options = new Options().setCreateIfMissing(true);
    // the pile's none keeps no log: neither does RocksDB then
    WriteOptions writes = new WriteOptions().setDisableWAL(config.durability() == Durability.NONE);
    try {
      RocksDB db = RocksDB.open(options, directory.toString());
      return new RocksDbStore(directory, options, writes, db);
    } catch (RocksDBException e) {
      writes.close();
      options.close();
      throw new IOException("RocksDB could not open " + directory + ": " + e.getMessage(), e);
    }
  }

  Path directory() {
    return directory;
  }

  @Override
  public void put(int index, Object value) {
    byte[] bytes =
        value instanceof String string ? string.getBytes(StandardCharsets.UTF_8) : (byte[]) value;
    try {
      db.put(writes, key(index), bytes);
    } catch (RocksDBException e) {
      throw new StoreFailedException("rocksdb put failed: " + e.getMessage(), e);
    }
  }

  @Override
  public long get(int index, byte[] buffer) {
    return checksumOf(db, index, buffer);
  }

  /** The checksum of value {@code index} in {@code db}, as {@link ValueSource} computes it. */
  static long checksumOf(RocksDB db, int index, byte[] buffer) {
    try {
      int length = db.get(key(index), buffer);
      if (length == RocksDB.NOT_FOUND) {
        throw new StoreFailedException("rocksdb lost value " + index);
      }
      return ValueSource.checksumOf(buffer, Math.min(length, buffer.length));
    } catch (RocksDBException e) {
      throw new StoreFailedException("rocksdb get failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void delete(int index) {
    try {
      db.delete(writes, key(index));
    } catch (RocksDBException e) {
      throw new StoreFailedException("rocksdb delete failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void reportAccounting(StoreResult result, int n) {} // RocksDB keeps no such account

  /** Flushes the memtable into table files, waits for it, and closes. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flush);
    } catch (RocksDBException e) {
      throw new StoreFailedException("rocksdb flush at close failed: " + e.getMessage(), e);
    } finally {
      db.close();
      writes.close();
      options.close();
    }
  }

  /** The key of value {@code index}, in this thread's reused 8-byte buffer. */
  static byte[] key(int index) {
    byte[] key = KEY.get();
    long k = index;
    for (int i = Long.BYTES - 1; i >= 0; i--) {
      key[i] = (byte) k;
      k >>>= Byte.SIZE;
    }
    return key;
  }
}
