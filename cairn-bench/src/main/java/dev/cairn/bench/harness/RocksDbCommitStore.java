package dev.cairn.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * RocksDB (through rocksdbjni, a benchmark-only dependency) under the same workload as the pile:
 * one {@code put} per commit with {@code WriteOptions.setSync(true)}, so each returns once its WAL
 * record is fsynced (RocksDB, too, groups concurrent writers' records into one write and sync).
 * Keys are 8 bytes, big-endian: the thread in the top 16 bits and its sequence number below, so
 * every commit adds a key. Default options otherwise, as a user would start.
 *
 * <p>The native library ships inside the jar and is unpacked on first use; where it cannot load
 * (another OS or CPU, a C library it was not built for), {@link #open} says so with {@link
 * StoreUnavailableException}, and the bench goes on without RocksDB.
 */
final class RocksDbCommitStore implements CommitStore {
  private final Options options;
  private final RocksDB db;
  private final WriteOptions syncWrites;

  private RocksDbCommitStore(Options options, RocksDB db, WriteOptions syncWrites) {
    this.options = options;
    this.db = db;
    this.syncWrites = syncWrites;
  }

  /**
   * @throws StoreUnavailableException if RocksDB's native library cannot load here
   * @throws IOException if the database cannot be created in {@code directory}
   */
  static RocksDbCommitStore open(Path directory) throws StoreUnavailableException, IOException {
    loadLibrary();
    Files.createDirectories(directory);
    Options options = new Options().setCreateIfMissing(true);
    WriteOptions syncWrites = new WriteOptions().setSync(true);
    try {
      return new RocksDbCommitStore(
          options, RocksDB.open(options, directory.toString()), syncWrites);
    } catch (RocksDBException e) {
      syncWrites.close();
      options.close();
      throw new IOException("RocksDB could not open " + directory + ": " + e.getMessage(), e);
    }
  }

  /**
   * Loads RocksDB's native library (unpacked from the jar on first use).
   *
   * @throws StoreUnavailableException if it cannot load on this machine
   */
  static void loadLibrary() throws StoreUnavailableException {
    try {
      RocksDB.loadLibrary();
    } catch (LinkageError | RuntimeException e) {
      throw new StoreUnavailableException(
          "RocksDB's native library does not load on this machine (" + e + ")", e);
    }
  }

  @Override
  public void commit(int thread, long sequence, byte[] value) {
    try {
      db.put(syncWrites, key(thread, sequence), value);
    } catch (RocksDBException e) {
      throw new StoreFailedException("rocksdb put failed: " + e.getMessage(), e);
    }
  }

  static byte[] key(int thread, long sequence) {
    long key = ((long) thread << 48) | sequence;
    byte[] bytes = new byte[Long.BYTES];
    for (int i = Long.BYTES - 1; i >= 0; i--) {
      bytes[i] = (byte) key;
      key >>>= Byte.SIZE;
    }
    return bytes;
  }

  @Override
  public long valueCount() {
    return -1; // RocksDB only estimates its key count; counting would mean a full scan
  }

  @Override
  public void close() {
    db.close();
    syncWrites.close();
    options.close();
  }
}
