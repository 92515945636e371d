package dev.cairn.bench.cache;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The stores the cache workload compares, in the order they run, each in a JVM of its own: what it
 * is, what its JVM needs, and what it can do (a bound, a directory).
 */
public enum CacheStoreKind {
  CAIRN("cairn", false, true, true),
  CHM("chm", true, false, false),
  CAFFEINE("caffeine", true, true, false),
  CHRONICLE("chronicle", false, false, false),
  EHCACHE("ehcache", false, true, false),
  /**
   * Cairn's cache through its JSR-107 provider (cairn-jcache): what JCache costs over the table.
   */
  CAIRN_JCACHE("cairn-jcache", false, false, false),
  /** Caffeine through its JSR-107 provider, store-by-value as JCache's default. */
  CAFFEINE_JCACHE("caffeine-jcache", true, false, false);

  /**
   * What Chronicle Map's libraries reach into on a modern JDK (their documented list for Java 17
   * and later): given to its JVM only, never to Cairn's.
   */
  private static final List<String> CHRONICLE_OPTIONS =
      List.of(
          "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
          "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED",
          "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
          "--add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
          "--sun-misc-unsafe-memory-access=allow");

  private final String label;
  private final boolean onHeap;
  private final boolean boundable;
  private final boolean persistent;

  CacheStoreKind(String label, boolean onHeap, boolean boundable, boolean persistent) {
    this.label = label;
    this.onHeap = onHeap;
    this.boundable = boundable;
    this.persistent = persistent;
  }

  /** The name in --stores and in the report. */
  String label() {
    return label;
  }

  /** Whether its entries live on the Java heap, which must then be sized for them. */
  boolean onHeap() {
    return onHeap;
  }

  /** Whether it can be bounded by bytes (--budget-fraction). */
  boolean boundable() {
    return boundable;
  }

  /** Whether it can keep its data in --dir and reopen it (--reopen). */
  boolean persistent() {
    return persistent;
  }

  /** JVM options its JVM needs beyond the bench's own. */
  List<String> jvmOptions() {
    return this == CHRONICLE ? CHRONICLE_OPTIONS : List.of();
  }

  CacheStore open(StoreSpec spec) {
    return switch (this) {
      case CAIRN -> CairnStore.open(spec);
      case CHM -> new MapStore();
      case CAFFEINE -> new CaffeineStore(spec);
      case CHRONICLE -> new ChronicleStore(spec);
      case EHCACHE -> new EhcacheStore(spec);
      case CAIRN_JCACHE -> new JCacheStore("dev.cairn.jcache.CairnCachingProvider");
      case CAFFEINE_JCACHE ->
          new JCacheStore("com.github.benmanes.caffeine.jcache.spi.CaffeineCachingProvider");
    };
  }

  /**
   * The kind named {@code label}.
   *
   * @throws IllegalArgumentException naming the stores there are
   */
  public static CacheStoreKind of(String label) {
    for (CacheStoreKind kind : values()) {
      if (kind.label.equals(label.toLowerCase(Locale.ROOT))) {
        return kind;
      }
    }
    throw new IllegalArgumentException(
        "unknown store for --workload cache: "
            + label
            + " (expected "
            + Arrays.stream(values()).map(CacheStoreKind::label).collect(Collectors.joining(", "))
            + ")");
  }
}
