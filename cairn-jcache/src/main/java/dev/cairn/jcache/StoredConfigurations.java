package dev.cairn.jcache;

import dev.cairn.cache.CacheTable;
import dev.cairn.cache.TableOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.cache.CacheException;

/**
 * The data of each JCache cache's configuration, kept in a table of the manager's Cairn cache, so
 * that a persistent manager restarted finds its caches again as they were made: their key and value
 * types (a typed {@code getCache} after a restart works, and a wrong type still fails), store by
 * value, statistics and management at creation, and Cairn's table settings (pinned, shares), which
 * the table would otherwise lose to a default. What is code is not kept: loaders, writers,
 * listeners and expiry policies (their factories) come back as the defaults.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Table: cache name (String) -> record; pinned, so that a budget never evicts it.
 * Record, big-endian (DataOutputStream):
 *   Version:u8 (1), Flags:u8 (1 store by value, 2 statistics, 4 management, 8 pinned),
 *   MinShare:f64, MaxShare:f64, KeyType:utf, ValueType:utf   (utf: DataOutput.writeUTF)
 * A record is put after the cache's table is made and removed after it is dropped: a crash
 * between leaves a cache without a record (it comes back with the defaults, as a cache of an
 * earlier build does) or a record without a cache (never read: only the caches the Cairn cache
 * holds are looked up).
 * A record of a later version, or one that cannot be read, is refused with a CacheException that
 * names the cache; a type whose class the manager's class loader cannot load comes back as Object.
 * }</pre>
 *
 * <p>Thread-safety: safe from any thread (the table is).
 */
final class StoredConfigurations {
  /** The table's name in the manager's Cairn cache: not a JCache cache. */
  static final String TABLE = "cairn.jcache.configurations";

  static final int VERSION = 1;
  private static final int STORE_BY_VALUE = 1;
  private static final int STATISTICS = 2;
  private static final int MANAGEMENT = 4;
  private static final int PINNED = 8;

  private final CacheTable<String, byte[]> table;

  StoredConfigurations(dev.cairn.cache.Cache store) {
    this.table =
        store.table(TABLE, String.class, byte[].class, TableOptions.builder().pinned(true).build());
  }

  /** Keeps the data of cache {@code name}'s configuration. */
  void save(String name, CairnConfiguration<?, ?> c) {
    table.put(name, encode(c));
  }

  /** Forgets cache {@code name}'s configuration. */
  void remove(String name) {
    table.remove(name);
  }

  /**
   * The configuration cache {@code name} was made with, its code parts the defaults; null if none
   * is kept (a cache of an earlier build).
   *
   * @throws CacheException if the record is of a later version or damaged
   */
  CairnConfiguration<Object, Object> restore(String name, ClassLoader loader) {
    byte[] record = table.get(name);
    return record == null ? null : decode(name, record, loader);
  }

  static byte[] encode(CairnConfiguration<?, ?> c) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(96);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(VERSION);
      out.writeByte(
          (c.isStoreByValue() ? STORE_BY_VALUE : 0)
              | (c.isStatisticsEnabled() ? STATISTICS : 0)
              | (c.isManagementEnabled() ? MANAGEMENT : 0)
              | (c.isPinned() ? PINNED : 0));
      out.writeDouble(c.getMinShare());
      out.writeDouble(c.getMaxShare());
      out.writeUTF(c.getKeyType().getName());
      out.writeUTF(c.getValueType().getName());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // not from a byte array
    }
    return bytes.toByteArray();
  }

  static CairnConfiguration<Object, Object> decode(String name, byte[] record, ClassLoader loader) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(record))) {
      int version = in.readUnsignedByte();
      if (version != VERSION) {
        throw new CacheException(
            "the configuration kept for cache "
                + name
                + " is of version "
                + version
                + ", this build reads "
                + VERSION
                + ": written by a newer Cairn?");
      }
      int flags = in.readUnsignedByte();
      double minShare = in.readDouble();
      double maxShare = in.readDouble();
      Class<Object> keyType = typeOf(in.readUTF(), loader);
      Class<Object> valueType = typeOf(in.readUTF(), loader);
      if (in.read() != -1) {
        throw new IOException("bytes after the record's end");
      }
      CairnConfiguration<Object, Object> c = new CairnConfiguration<>();
      c.setTypes(keyType, valueType);
      c.setStoreByValue((flags & STORE_BY_VALUE) != 0);
      c.setStatisticsEnabled((flags & STATISTICS) != 0);
      c.setManagementEnabled((flags & MANAGEMENT) != 0);
      c.setPinned((flags & PINNED) != 0);
      c.setMinShare(minShare);
      c.setMaxShare(maxShare);
      return c;
    } catch (IOException | IllegalArgumentException e) {
      throw new CacheException(
          "the configuration kept for cache "
              + name
              + " cannot be read ("
              + e.getMessage()
              + "): the file was damaged, or written by another build",
          e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Class<Object> typeOf(String className, ClassLoader loader) {
    try {
      return (Class<Object>) Class.forName(className, false, loader);
    } catch (ClassNotFoundException | LinkageError gone) {
      return Object.class; // the class is gone: the cache comes back untyped
    }
  }
}
