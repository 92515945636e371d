package dev.cairn.ycsb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/** The binding's operations, one client at a time or several sharing one cache. */
class CairnYcsbClientTest {
  private static final String TABLE = "usertable";

  @TempDir Path temp;

  @Test
  void insertReadUpdateDelete_onOneRecord() throws Exception {
    CairnYcsbClient db = client(new Properties());
    try {
      assertThat(db.insert(TABLE, "user1", fields("a", "1", "b", "2", "c", "3")))
          .isEqualTo(Status.OK);
      assertThat(read(db, "user1", null)).isEqualTo(Map.of("a", "1", "b", "2", "c", "3"));

      // an update puts its fields over the record's and keeps the others
      assertThat(db.update(TABLE, "user1", fields("b", "two", "d", "4"))).isEqualTo(Status.OK);
      assertThat(read(db, "user1", null))
          .isEqualTo(Map.of("a", "1", "b", "two", "c", "3", "d", "4"));

      // a read of some fields returns those only
      assertThat(read(db, "user1", Set.of("b", "d", "missing")))
          .isEqualTo(Map.of("b", "two", "d", "4"));

      assertThat(db.delete(TABLE, "user1")).isEqualTo(Status.OK);
      Map<String, ByteIterator> result = new HashMap<>();
      assertThat(db.read(TABLE, "user1", null, result)).isEqualTo(Status.NOT_FOUND);
      assertThat(result).isEmpty();
    } finally {
      db.cleanup();
    }
  }

  @Test
  void missingKey_readUpdateDelete_notFound_andUpdateCreatesNothing() throws Exception {
    CairnYcsbClient db = client(new Properties());
    try {
      assertThat(db.read(TABLE, "nobody", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
      assertThat(db.update(TABLE, "nobody", fields("a", "1"))).isEqualTo(Status.NOT_FOUND);
      assertThat(db.read(TABLE, "nobody", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
      assertThat(db.delete(TABLE, "nobody")).isEqualTo(Status.NOT_FOUND);
    } finally {
      db.cleanup();
    }
  }

  @Test
  void insert_ofAnExistingKey_replacesTheRecord() throws Exception {
    CairnYcsbClient db = client(new Properties());
    try {
      db.insert(TABLE, "user1", fields("a", "1", "b", "2"));
      assertThat(db.insert(TABLE, "user1", fields("c", "3"))).isEqualTo(Status.OK);
      assertThat(read(db, "user1", null)).isEqualTo(Map.of("c", "3"));
    } finally {
      db.cleanup();
    }
  }

  @Test
  void tables_areSeparate() throws Exception {
    CairnYcsbClient db = client(new Properties());
    try {
      db.insert("t1", "k", fields("a", "1"));
      db.insert("t2", "k", fields("a", "2"));
      assertThat(read(db, "t1", "k", null)).isEqualTo(Map.of("a", "1"));
      assertThat(read(db, "t2", "k", null)).isEqualTo(Map.of("a", "2"));
    } finally {
      db.cleanup();
    }
  }

  @Test
  void scan_isNotImplemented() throws Exception {
    CairnYcsbClient db = client(new Properties());
    try {
      db.insert(TABLE, "user1", fields("a", "1"));
      @SuppressWarnings("JdkObsolete") // the type of YCSB's DB.scan
      Vector<HashMap<String, ByteIterator>> result = new Vector<>();
      assertThat(db.scan(TABLE, "user1", 10, null, result)).isEqualTo(Status.NOT_IMPLEMENTED);
      assertThat(result).isEmpty();
    } finally {
      db.cleanup();
    }
  }

  @Test
  void concurrentUpdates_ofDifferentFieldsOfOneRecord_loseNoField() throws Exception {
    int threads = 4;
    int updatesEach = 300;
    List<CairnYcsbClient> clients = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      clients.add(client(new Properties())); // one client per thread, as YCSB makes them
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      clients.get(0).insert(TABLE, "hot", fields("base", "0"));
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        CairnYcsbClient db = clients.get(t);
        String prefix = "t" + t + "-";
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  int ok = 0;
                  for (int i = 0; i < updatesEach; i++) {
                    // a new field each time, and this thread's own field rewritten each time
                    Status status =
                        db.update(
                            TABLE, "hot", fields(prefix + i, "v" + i, prefix + "last", "v" + i));
                    if (status.isOk()) {
                      ok++;
                    }
                  }
                  return ok;
                }));
      }
      start.countDown();
      for (Future<Integer> f : done) {
        assertThat(f.get()).isEqualTo(updatesEach);
      }
      Map<String, String> record = read(clients.get(0), "hot", null);
      Map<String, String> expected = new TreeMap<>();
      expected.put("base", "0");
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < updatesEach; i++) {
          expected.put("t" + t + "-" + i, "v" + i);
        }
        expected.put("t" + t + "-last", "v" + (updatesEach - 1));
      }
      Map<String, String> lostOrWrong = new TreeMap<>(expected);
      lostOrWrong.entrySet().removeIf(e -> e.getValue().equals(record.get(e.getKey())));
      assertThat(lostOrWrong)
          .as("fields lost, or with another value than the last written")
          .isEmpty();
      assertThat(record).hasSameSizeAs(expected);
    } finally {
      pool.shutdownNow();
      for (CairnYcsbClient db : clients) {
        db.cleanup();
      }
    }
  }

  @Test
  void volatileCache_isSharedByClients_andGoneAfterTheLastCleanup() throws Exception {
    CairnYcsbClient first = client(new Properties());
    CairnYcsbClient second = client(new Properties());
    first.insert(TABLE, "user1", fields("a", "1"));
    assertThat(read(second, "user1", null)).isEqualTo(Map.of("a", "1"));
    first.cleanup();
    assertThat(read(second, "user1", null)).as("open while a client holds it").containsKey("a");
    second.cleanup();

    CairnYcsbClient third = client(new Properties());
    try {
      assertThat(third.read(TABLE, "user1", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
    } finally {
      third.cleanup();
    }
  }

  @Test
  void persistentCache_recordsSurviveTheLastCleanupAndAReopen() throws Exception {
    Properties props = new Properties();
    props.setProperty("cairn.dir", temp.resolve("cache").toString());
    props.setProperty("cairn.logfilebytes", "1m"); // SYNC (the default) fills its log with zeros
    props.setProperty("cairn.verify", "true");
    CairnYcsbClient db = client(props);
    try {
      for (int i = 0; i < 100; i++) {
        db.insert(TABLE, "user" + i, fields("a", "a" + i, "b", "b" + i));
      }
      db.update(TABLE, "user7", fields("b", "changed"));
      db.delete(TABLE, "user8");
    } finally {
      db.cleanup(); // the last client: closes the cache, after checking it
    }

    CairnYcsbClient reopened = client(props);
    try {
      for (int i = 0; i < 100; i++) {
        if (i == 8) {
          assertThat(reopened.read(TABLE, "user8", null, new HashMap<>()))
              .isEqualTo(Status.NOT_FOUND);
        } else {
          assertThat(read(reopened, "user" + i, null))
              .isEqualTo(Map.of("a", "a" + i, "b", i == 7 ? "changed" : "b" + i));
        }
      }
    } finally {
      reopened.cleanup();
    }
  }

  @Test
  void malformedProperty_failsInit_namingIt() {
    assertInitFails("cairn.budget", "lots", "cairn.budget=lots is not a positive number of bytes");
    assertInitFails("cairn.budget", "0", "cairn.budget=0 is not a positive number of bytes");
    assertInitFails(
        "cairn.durability", "sometimes", "cairn.durability=sometimes is not a durability");
    assertInitFails("cairn.verify", "yes", "cairn.verify=yes is not a boolean");
    assertInitFails("cairn.durability", "sync", "cairn.durability is set but cairn.dir is not");
    assertInitFails("table", "", "table= cannot be a table of the cache");
  }

  @Test
  void logFileBytes_theCacheRefuses_failsInit_namingIt() {
    Properties props = new Properties();
    props.setProperty("cairn.dir", temp.resolve("cache").toString());
    props.setProperty("cairn.logfilebytes", "1000");
    assertThatThrownBy(() -> client(props))
        .isInstanceOf(DBException.class)
        .hasMessageContaining("cairn.logfilebytes=1000 is refused");
  }

  @Test
  void otherSettings_whileTheCacheIsOpen_failInit() throws Exception {
    CairnYcsbClient db = client(new Properties());
    try {
      Properties other = new Properties();
      other.setProperty("cairn.budget", "64m");
      assertThatThrownBy(() -> client(other))
          .isInstanceOf(DBException.class)
          .hasMessageContaining("give every client of one JVM the same properties");
    } finally {
      db.cleanup();
    }
  }

  @Test
  void cleanup_twice_releasesOnce() throws Exception {
    CairnYcsbClient first = client(new Properties());
    CairnYcsbClient second = client(new Properties());
    first.insert(TABLE, "user1", fields("a", "1"));
    first.cleanup();
    first.cleanup();
    try {
      assertThat(read(second, "user1", null)).isEqualTo(Map.of("a", "1"));
    } finally {
      second.cleanup();
    }
  }

  private static void assertInitFails(String property, String value, String message) {
    Properties props = new Properties();
    props.setProperty(property, value);
    assertThatThrownBy(() -> client(props))
        .as(property + "=" + value)
        .isInstanceOf(DBException.class)
        .hasMessageContaining(message);
  }

  private static CairnYcsbClient client(Properties props) throws DBException {
    CairnYcsbClient db = new CairnYcsbClient();
    db.setProperties(props);
    db.init();
    return db;
  }

  /** Field name, value, name, value... as YCSB passes them. */
  private static Map<String, ByteIterator> fields(String... namesAndValues) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      values.put(namesAndValues[i], namesAndValues[i + 1]);
    }
    return StringByteIterator.getByteIteratorMap(values);
  }

  private static Map<String, String> read(CairnYcsbClient db, String key, Set<String> fields) {
    return read(db, TABLE, key, fields);
  }

  private static Map<String, String> read(
      CairnYcsbClient db, String table, String key, Set<String> fields) {
    Map<String, ByteIterator> result = new HashMap<>();
    assertThat(db.read(table, key, fields, result)).as("read of " + key).isEqualTo(Status.OK);
    Map<String, String> values = new HashMap<>();
    result.forEach((k, v) -> values.put(k, new String(v.toArray(), StandardCharsets.UTF_8)));
    return values;
  }
}
