package dev.cairn.jcache;

import dev.cairn.cache.CacheTable;
import dev.cairn.cache.TableOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import javax.cache.CacheException;
import javax.cache.configuration.Factory;
import javax.cache.expiry.ExpiryPolicy;
import javax.cache.integration.CacheLoader;
import javax.cache.integration.CacheWriter;

/**
 * The configuration of each JCache cache, kept in a table of the manager's Cairn cache, so that a
 * persistent manager restarted finds its caches again as they were made: their key and value types
 * (a typed {@code getCache} after a restart works, and a wrong type still fails), store by value,
 * statistics and management at creation, read- and write-through, the factories of the expiry
 * policy, loader and writer (JSR-107 makes every factory Serializable: they are kept by Java
 * serialization, and need their classes at the restart), and Cairn's table settings (pinned,
 * shares), which the table would otherwise lose to a default. Listeners are not kept: an
 * application registers them again after a restart, and one kept as well would hear each event
 * twice.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Table: cache name (String) -> record; pinned, so that a budget never evicts it.
 * Record, big-endian (DataOutputStream):
 *   Version:u8 (1), Flags:u8 (1 store by value, 2 statistics, 4 management, 8 pinned,
 *   16 read-through, 32 write-through), MinShare:f64, MaxShare:f64, KeyType:utf,
 *   ValueType:utf (utf: DataOutput.writeUTF), then the factories of the expiry policy, the
 *   loader and the writer, each Length:u32 (0: none) and its Java serialization.
 * A record is put after the cache's table is made and removed after it is dropped: a crash
 * between leaves a cache without a record (it comes back with the defaults, as a cache of an
 * earlier build does) or a record without a cache (never read: only the caches the Cairn cache
 * holds are looked up).
 * A record of a later version, or one that cannot be read, is refused with a CacheException that
 * names the cache; so is a factory whose class the manager's class loader cannot load (a cache
 * that silently lost its expiry policy would keep its new entries forever). A key or value type
 * whose class is gone comes back as Object.
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
  private static final int READ_THROUGH = 16;
  private static final int WRITE_THROUGH = 32;

  private final CacheTable<String, byte[]> table;

  StoredConfigurations(dev.cairn.cache.Cache store) {
    this.table =
        store.table(TABLE, String.class, byte[].class, TableOptions.builder().pinned(true).build());
  }

  /** Keeps cache {@code name}'s configuration, as {@link #encode} made its record. */
  void save(String name, byte[] record) {
    table.put(name, record);
  }

  /** Forgets cache {@code name}'s configuration. */
  void remove(String name) {
    table.remove(name);
  }

  /**
   * The configuration cache {@code name} was made with (listeners aside); null if none is kept (a
   * cache of an earlier build).
   *
   * @throws CacheException if the record is of a later version or damaged, or a factory's class
   *     cannot be loaded
   */
  CairnConfiguration<Object, Object> restore(String name, ClassLoader loader) {
    byte[] record = table.get(name);
    return record == null ? null : decode(name, record, loader);
  }

  /**
   * The record of {@code c}.
   *
   * @throws IllegalArgumentException if a factory of it is not serializable
   */
  static byte[] encode(CairnConfiguration<?, ?> c) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(96);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(VERSION);
      out.writeByte(
          (c.isStoreByValue() ? STORE_BY_VALUE : 0)
              | (c.isStatisticsEnabled() ? STATISTICS : 0)
              | (c.isManagementEnabled() ? MANAGEMENT : 0)
              | (c.isPinned() ? PINNED : 0)
              | (c.isReadThrough() ? READ_THROUGH : 0)
              | (c.isWriteThrough() ? WRITE_THROUGH : 0));
      out.writeDouble(c.getMinShare());
      out.writeDouble(c.getMaxShare());
      out.writeUTF(c.getKeyType().getName());
      out.writeUTF(c.getValueType().getName());
      writeFactory(out, c.getExpiryPolicyFactory());
      writeFactory(out, c.getCacheLoaderFactory());
      writeFactory(out, c.getCacheWriterFactory());
    } catch (NotSerializableException e) {
      throw new IllegalArgumentException(
          "a persistent cache keeps its configuration's factories, which must be Serializable (as"
              + " JSR-107 asks of every factory): "
              + e.getMessage()
              + " is not",
          e);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // not from a byte array
    }
    return bytes.toByteArray();
  }

  /**
   * The configuration in {@code record}.
   *
   * @throws CacheException if the record is of a later version or damaged, or a factory's class
   *     cannot be loaded
   */
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
      Factory<ExpiryPolicy> expiry = readFactory(in, loader, "expiry policy");
      Factory<CacheLoader<Object, Object>> cacheLoader = readFactory(in, loader, "loader");
      Factory<CacheWriter<? super Object, ? super Object>> writer =
          readFactory(in, loader, "writer");
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
      if (expiry != null) {
        c.setExpiryPolicyFactory(expiry);
      }
      c.setCacheLoaderFactory(cacheLoader);
      c.setCacheWriterFactory(writer);
      c.setReadThrough((flags & READ_THROUGH) != 0);
      c.setWriteThrough((flags & WRITE_THROUGH) != 0);
      return c;
    } catch (ClassNotFoundException e) {
      throw new CacheException(
          "cache "
              + name
              + " was made with a factory whose class cannot be loaded ("
              + e.getMessage()
              + "): put it on the cache manager's class path, or destroy the cache",
          e);
    } catch (IOException | IllegalArgumentException | ClassCastException e) {
      throw new CacheException(
          "the configuration kept for cache "
              + name
              + " cannot be read ("
              + e.getMessage()
              + "): the file was damaged, or written by another build",
          e);
    }
  }

  private static void writeFactory(DataOutputStream out, Factory<?> factory) throws IOException {
    if (factory == null) {
      out.writeInt(0);
      return;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (ObjectOutputStream o = new ObjectOutputStream(bytes)) {
      o.writeObject(factory);
    }
    out.writeInt(bytes.size());
    bytes.writeTo(out);
  }

  @SuppressWarnings("unchecked")
  private static <T> Factory<T> readFactory(DataInputStream in, ClassLoader loader, String what)
      throws IOException, ClassNotFoundException {
    int length = in.readInt();
    if (length == 0) {
      return null;
    }
    if (length < 0 || length > in.available()) {
      throw new IOException("the " + what + " factory's length " + length + " exceeds the record");
    }
    byte[] bytes = in.readNBytes(length);
    try (ObjectInputStream o = new LoaderInputStream(new ByteArrayInputStream(bytes), loader)) {
      Object factory = o.readObject();
      if (!(factory instanceof Factory<?>)) {
        throw new IOException(
            "the " + what + " factory is a " + factory.getClass().getName() + ", not a Factory");
      }
      return (Factory<T>) factory;
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
