package dev.cairn.ycsb;

import dev.cairn.cache.CacheTable;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The YCSB binding of the Cairn cache: {@code site.ycsb.Client -db dev.cairn.ycsb.CairnYcsbClient}.
 *
 * <p>Each YCSB table is a {@code CacheTable<String, byte[]>} of the same name; each record is one
 * value, its fields encoded by {@link RecordCodec}. {@link #update} merges the given fields into
 * the record with a compare-and-set ({@code replace(key, expected, merged)}), retried until no
 * other write came between its read and its write, so concurrent updates of one record lose no
 * field. {@link #scan} is not implemented: the cache's index is a hash table, with no key order to
 * scan in (workload E cannot run).
 *
 * <p>Properties (docs/YCSB.md): {@code cairn.dir} (a persistent cache's directory; absent: a
 * volatile cache), {@code cairn.budget}, {@code cairn.durability}, {@code cairn.logfilebytes},
 * {@code cairn.verify}. All clients of a JVM share one cache ({@link SharedCache}).
 *
 * <p>Thread-safety: YCSB gives each thread a client object of its own, and so does this class
 * expect; the clients of different threads may run at once.
 */
public class CairnYcsbClient extends DB {
  private static final System.Logger LOG = System.getLogger(CairnYcsbClient.class.getName());

  /** YCSB's table property (CoreWorkload's) and its default. */
  private static final String TABLE = "table";

  private static final String DEFAULT_TABLE = "usertable";

  private SharedCache shared; // between init and cleanup

  /** YCSB makes the client by reflection, then calls {@link #init}. */
  public CairnYcsbClient() {}

  /**
   * Opens the JVM's cache, or joins it, and its table named by YCSB's {@code table} property.
   *
   * @throws DBException naming the property at fault, if a property is malformed; or saying why the
   *     cache cannot be opened
   */
  @Override
  public void init() throws DBException {
    if (shared != null) {
      throw new DBException("init called twice on one client, without a cleanup between");
    }
    CairnSettings settings;
    try {
      settings = CairnSettings.from(getProperties());
    } catch (IllegalArgumentException e) {
      throw new DBException(e.getMessage(), e);
    }
    SharedCache cache;
    try {
      cache = SharedCache.acquire(settings);
    } catch (Exception e) { // IOException, or any of the cache's own on opening its files
      throw new DBException("cannot open " + settings.describe() + ": " + e, e);
    }
    String table = getProperties().getProperty(TABLE, DEFAULT_TABLE);
    try {
      cache.table(table);
    } catch (RuntimeException e) { // a name the cache refuses, or a table of other types
      cache.release();
      throw new DBException(TABLE + "=" + table + " cannot be a table of the cache: " + e, e);
    }
    shared = cache;
  }

  /**
   * Leaves the JVM's cache; the last client to leave closes it, after checking it if {@code
   * cairn.verify} is true.
   *
   * @throws DBException if the check finds index and pile disagree
   */
  @Override
  public void cleanup() throws DBException {
    SharedCache cache = shared;
    if (cache == null) {
      return;
    }
    shared = null;
    try {
      long checked = cache.release();
      if (checked >= 0) {
        LOG.log(
            Level.INFO,
            "cairn.verify: Cache.verify() checked {0} entries: index and pile agree",
            checked);
      }
    } catch (RuntimeException e) {
      throw new DBException("cairn.verify: the cache failed its check: " + e, e);
    }
  }

  @Override
  public Status read(
      String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      byte[] record = table(table).get(key);
      if (record == null) {
        return Status.NOT_FOUND;
      }
      RecordCodec.decode(record, fields, result);
      return Status.OK;
    } catch (RuntimeException e) {
      return failed("read", table, key, e);
    }
  }

  /**
   * Not implemented: the cache's index is a hash table, whose keys have no order, so it cannot
   * return the records that follow a key. Returns {@link Status#NOT_IMPLEMENTED}.
   */
  @Override
  @SuppressWarnings("NonApiType") // the signature is YCSB's DB.scan, HashMap and Vector included
  public Status scan(
      String table,
      String startkey,
      int recordcount,
      Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return Status.NOT_IMPLEMENTED;
  }

  /**
   * Puts {@code values} over the record's fields, keeping its other fields; {@link
   * Status#NOT_FOUND} if the key has no record.
   */
  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    try {
      CacheTable<String, byte[]> records = table(table);
      Map<String, byte[]> updates = RecordCodec.toBytes(values);
      while (true) {
        byte[] record = records.get(key);
        if (record == null) {
          return Status.NOT_FOUND;
        }
        // replaced only if no other write came since the get: a lost race reads and merges again
        if (records.replace(key, record, RecordCodec.merge(record, updates))) {
          return Status.OK;
        }
      }
    } catch (RuntimeException e) {
      return failed("update", table, key, e);
    }
  }

  /** Stores the record, replacing any the key had. */
  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      table(table).put(key, RecordCodec.encode(RecordCodec.toBytes(values)));
      return Status.OK;
    } catch (RuntimeException e) {
      return failed("insert", table, key, e);
    }
  }

  /** Removes the record; {@link Status#NOT_FOUND} if the key had none. */
  @Override
  public Status delete(String table, String key) {
    try {
      return table(table).remove(key) ? Status.OK : Status.NOT_FOUND;
    } catch (RuntimeException e) {
      return failed("delete", table, key, e);
    }
  }

  private CacheTable<String, byte[]> table(String name) {
    SharedCache cache = shared;
    if (cache == null) {
      throw new IllegalStateException("the client is not initialized: YCSB calls init() first");
    }
    return cache.table(name);
  }

  private static Status failed(String operation, String table, String key, RuntimeException e) {
    LOG.log(Level.ERROR, operation + " of key " + key + " in table " + table + " failed", e);
    return Status.ERROR;
  }
}
