package dev.cairn.jcache;

import dev.cairn.cache.CacheTable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.cache.CacheException;

/**
 * The class descriptors of a cache manager's serialized keys and values, each written once, in a
 * table of the manager's Cairn cache, and named by a number in the values themselves ({@link
 * Marshaller}'s compact serialization, as Ehcache's compact serializer does): a Java-serialized
 * value then carries no class names and field lists, which otherwise cost most of its size and of
 * its decoding.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Table: id (Long, from 1) -> the descriptor, Java-serialized alone (ObjectStreamClass); pinned,
 * so that a budget never evicts a descriptor that values name.
 * D1 An id is stored in the table before any value that names it is written: the table's put
 *    comes first on the writer's thread, so it is earlier in the pile's log, and a recovery that
 *    keeps the value keeps the descriptor.
 * D2 Ids are given under this object's lock, one per class name and serialVersionUID, and never
 *    reused: a class that changes its serialVersionUID gets a new id, and values written before
 *    keep the old one.
 * D3 The open loads every descriptor of the table; a descriptor that cannot be loaded (its class
 *    is gone) is left out, and a value naming it fails to decode with a CacheException that says
 *    which id.
 * }</pre>
 *
 * <p>Thread-safety: safe from any thread.
 */
final class ClassDescriptors {
  /** The table's name in the manager's Cairn cache: not a JCache cache. */
  static final String TABLE = "cairn.jcache.classes";

  private final CacheTable<Long, byte[]> table;
  private final ClassLoader loader;
  private final Map<String, Long> ids = new ConcurrentHashMap<>();
  private final Map<Long, ObjectStreamClass> descriptors = new ConcurrentHashMap<>();
  private long last;

  ClassDescriptors(CacheTable<Long, byte[]> table, ClassLoader loader) {
    this.table = table;
    this.loader = loader;
    for (Map.Entry<Long, byte[]> e : table) {
      long id = e.getKey();
      last = Math.max(last, id);
      ObjectStreamClass d = load(e.getValue());
      if (d != null) { // D3
        descriptors.put(id, d);
        ids.put(key(d), id);
      }
    }
  }

  private static String key(ObjectStreamClass d) {
    return d.getName() + "/" + d.getSerialVersionUID();
  }

  /** The id of {@code descriptor}, given and stored first if it has none (D1, D2). */
  long idOf(ObjectStreamClass descriptor) {
    Long id = ids.get(key(descriptor));
    return id != null ? id : give(descriptor);
  }

  private synchronized long give(ObjectStreamClass descriptor) {
    Long id = ids.get(key(descriptor));
    if (id != null) {
      return id;
    }
    long next = ++last;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(descriptor);
    } catch (IOException e) {
      throw new CacheException("cannot serialize the class descriptor of " + descriptor, e);
    }
    table.put(next, bytes.toByteArray()); // D1: before any value names it
    descriptors.put(next, descriptor);
    ids.put(key(descriptor), next);
    return next;
  }

  /**
   * The descriptor of id {@code id}.
   *
   * @throws CacheException if there is none (D3)
   */
  ObjectStreamClass descriptor(long id) {
    ObjectStreamClass d = descriptors.get(id);
    if (d == null) {
      throw new CacheException(
          "a stored value names class descriptor "
              + id
              + ", which the cache manager does not have (its class could not be loaded at open,"
              + " or the table "
              + TABLE
              + " was damaged)");
    }
    return d;
  }

  private ObjectStreamClass load(byte[] bytes) {
    try (ObjectInputStream in = new LoaderInputStream(new ByteArrayInputStream(bytes), loader)) {
      return (ObjectStreamClass) in.readObject();
    } catch (IOException | ClassNotFoundException | ClassCastException e) {
      return null;
    }
  }
}
