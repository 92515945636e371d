package dev.cairn.jcache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import javax.cache.CacheException;
import javax.cache.configuration.Factory;
import javax.cache.configuration.FactoryBuilder;
import javax.cache.expiry.CreatedExpiryPolicy;
import javax.cache.expiry.Duration;
import javax.cache.expiry.EternalExpiryPolicy;
import javax.cache.expiry.ExpiryPolicy;
import javax.cache.integration.CacheLoader;
import org.junit.jupiter.api.Test;

/** The record a persistent manager keeps of each cache's configuration (StoredConfigurations). */
class StoredConfigurationsTest {
  private static final ClassLoader LOADER = StoredConfigurationsTest.class.getClassLoader();

  private static CairnConfiguration<Long, String> sample() {
    CairnConfiguration<Long, String> c =
        new CairnConfiguration<Long, String>().setPinned(true).setMinShare(0.25);
    c.setTypes(Long.class, String.class).setStatisticsEnabled(true);
    return c;
  }

  /** The bytes of the documented layout, so that a change to them is a change of version. */
  @Test
  void theRecord_hasItsDocumentedBytes() {
    String hex = HexFormat.of().formatHex(StoredConfigurations.encode(sample()));
    String fixed =
        "01" // version
            + "0b" // store by value | statistics | pinned
            + "3fd0000000000000" // min share 0.25
            + "3ff0000000000000" // max share 1.0
            + "000e"
            + HexFormat.of().formatHex("java.lang.Long".getBytes(StandardCharsets.UTF_8))
            + "0010"
            + HexFormat.of().formatHex("java.lang.String".getBytes(StandardCharsets.UTF_8));
    assertThat(hex).startsWith(fixed);
    // then the expiry policy's factory (the default, eternal), serialized, and no loader or writer
    int length = Integer.parseInt(hex.substring(fixed.length(), fixed.length() + 8), 16);
    assertThat(length).isPositive();
    assertThat(hex.substring(fixed.length() + 8, fixed.length() + 12)).isEqualTo("aced");
    assertThat(hex.substring(fixed.length() + 8 + 2 * length)).isEqualTo("00000000" + "00000000");
  }

  @Test
  void theFactories_andThroughFlags_comeBack() {
    CairnConfiguration<Long, String> c = sample();
    c.setExpiryPolicyFactory(CreatedExpiryPolicy.factoryOf(Duration.FIVE_MINUTES));
    c.setCacheLoaderFactory(FactoryBuilder.factoryOf(Loads.class));
    c.setReadThrough(true);
    CairnConfiguration<Object, Object> back =
        StoredConfigurations.decode("c", StoredConfigurations.encode(c), LOADER);
    assertThat(back.getExpiryPolicyFactory().create().getExpiryForCreation())
        .isEqualTo(Duration.FIVE_MINUTES);
    assertThat(back.getCacheLoaderFactory().create()).isInstanceOf(Loads.class);
    assertThat(back.getCacheWriterFactory()).isNull();
    assertThat(back.isReadThrough()).isTrue();
    assertThat(back.isWriteThrough()).isFalse();
  }

  @Test
  void aFactoryWhoseClassIsGone_isRefusedNamingTheCache() {
    CairnConfiguration<Long, String> c = sample();
    c.setCacheLoaderFactory(FactoryBuilder.factoryOf(new Loads())); // the instance, serialized
    String hex = HexFormat.of().formatHex(StoredConfigurations.encode(c));
    String gone =
        hex.replace(
            HexFormat.of().formatHex("$Loads".getBytes(StandardCharsets.UTF_8)),
            HexFormat.of().formatHex("$Loadz".getBytes(StandardCharsets.UTF_8)));
    assertThat(gone).isNotEqualTo(hex);
    assertThatThrownBy(
            () -> StoredConfigurations.decode("orders", HexFormat.of().parseHex(gone), LOADER))
        .isInstanceOf(CacheException.class)
        .hasMessageContaining("cache orders")
        .hasMessageContaining("cannot be loaded");
  }

  @Test
  void aFactoryThatCannotBeSerialized_isRefused() {
    CairnConfiguration<Long, String> c = sample();
    c.setExpiryPolicyFactory(new HoldsALock());
    assertThatThrownBy(() -> StoredConfigurations.encode(c))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Serializable");
  }

  /** A factory that holds what cannot be serialized. */
  static final class HoldsALock implements Factory<ExpiryPolicy> {
    private static final long serialVersionUID = 1L;

    @SuppressWarnings("serial") // the point: it is not serializable
    private final Object lock = new Object();

    @Override
    public ExpiryPolicy create() {
      synchronized (lock) {
        return new EternalExpiryPolicy();
      }
    }
  }

  /** A loader whose factory a configuration keeps. */
  public static final class Loads implements CacheLoader<Long, String>, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public String load(Long key) {
      return "loaded " + key;
    }

    @Override
    public java.util.Map<Long, String> loadAll(Iterable<? extends Long> keys) {
      java.util.Map<Long, String> all = new java.util.HashMap<>();
      keys.forEach(k -> all.put(k, load(k)));
      return all;
    }
  }

  @Test
  void aRecord_decodesToTheConfiguration_itsCodeTheDefaults() {
    CairnConfiguration<Object, Object> c =
        StoredConfigurations.decode("c", StoredConfigurations.encode(sample()), LOADER);
    assertThat(c.getKeyType()).isEqualTo(Long.class);
    assertThat(c.getValueType()).isEqualTo(String.class);
    assertThat(c.isPinned()).isTrue();
    assertThat(c.getMinShare()).isEqualTo(0.25);
    assertThat(c.getMaxShare()).isEqualTo(1.0);
    assertThat(c.isStatisticsEnabled()).isTrue();
    assertThat(c.isManagementEnabled()).isFalse();
    assertThat(c.isStoreByValue()).isTrue();
    assertThat(c.getCacheLoaderFactory()).isNull();
  }

  @Test
  void aTypeWhoseClassIsGone_comesBackAsObject() {
    byte[] record = StoredConfigurations.encode(sample());
    String hex = HexFormat.of().formatHex(record);
    String gone =
        hex.replace(
            HexFormat.of().formatHex("java.lang.Long".getBytes(StandardCharsets.UTF_8)),
            HexFormat.of().formatHex("java.lang.Lonk".getBytes(StandardCharsets.UTF_8)));
    CairnConfiguration<Object, Object> c =
        StoredConfigurations.decode("c", HexFormat.of().parseHex(gone), LOADER);
    assertThat(c.getKeyType()).isEqualTo(Object.class);
    assertThat(c.getValueType()).isEqualTo(String.class);
  }

  @Test
  void aLaterVersion_orADamagedRecord_isRefusedNamingTheCache() {
    byte[] record = StoredConfigurations.encode(sample());
    byte[] later = record.clone();
    later[0] = 2;
    assertThatThrownBy(() -> StoredConfigurations.decode("orders", later, LOADER))
        .isInstanceOf(CacheException.class)
        .hasMessageContaining("cache orders")
        .hasMessageContaining("version 2");
    byte[] cut = Arrays.copyOf(record, record.length - 3);
    assertThatThrownBy(() -> StoredConfigurations.decode("orders", cut, LOADER))
        .isInstanceOf(CacheException.class)
        .hasMessageContaining("cache orders");
    byte[] longer = Arrays.copyOf(record, record.length + 1);
    assertThatThrownBy(() -> StoredConfigurations.decode("orders", longer, LOADER))
        .isInstanceOf(CacheException.class)
        .hasMessageContaining("after the record's end");
    byte[] badShare = record.clone();
    badShare[2] = 0x40; // min share 2.0 and more
    assertThatThrownBy(() -> StoredConfigurations.decode("orders", badShare, LOADER))
        .isInstanceOf(CacheException.class)
        .hasMessageContaining("minShare");
  }
}
