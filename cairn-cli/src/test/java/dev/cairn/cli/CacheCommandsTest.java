package dev.cairn.cli;

import static dev.cairn.cli.CliRun.cairn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.cache.Cache;
import dev.cairn.cache.CacheOptions;
import dev.cairn.cache.CacheTable;
import dev.cairn.cache.TableOptions;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cairn inspect} and {@code cairn verify} of a persistent cache: its tables, checked. */
class CacheCommandsTest {
  @TempDir Path directory;

  private void createCache() throws Exception {
    try (Cache cache = Cache.open(directory, CacheOptions.defaults())) {
      CacheTable<String, String> pages =
          cache.table(
              "pages",
              String.class,
              String.class,
              TableOptions.builder()
                  .expireAfterWrite(Duration.ofHours(1))
                  .writeTimes(true)
                  .build());
      for (int i = 0; i < 500; i++) {
        pages.put("/page/" + i, "<html>" + i + "</html>");
      }
      // no write times: its entries are stored bare, which inspect and verify read
      CacheTable<Long, byte[]> blobs = cache.table("blobs", Long.class, byte[].class);
      for (long i = 0; i < 200; i++) {
        blobs.put(i, new byte[64]);
      }
    }
  }

  @Test
  void inspect_ofACache_listsItsTables() throws Exception {
    createCache();

    CliRun run = cairn("inspect", directory.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .startsWith("pile " + directory)
        .contains("cache: 2 tables")
        .contains("pages (string -> java.lang.String): 500 entries", "expire after write PT1H")
        .contains("PT1H, write times")
        .contains("blobs (long -> [B): 200 entries")
        .containsPattern("500 entries, [0-9.]+ KiB \\([0-9]+\\.[0-9] B an entry\\), index ")
        .containsPattern("index [0-9.]+ KiB \\([0-9]+\\.[0-9] B an entry\\) \\(keys")
        .contains("(keys runs)");
  }

  @Test
  void inspectJson_andVerify_ofACache_reportItsEntries() throws Exception {
    createCache();

    CliRun inspect = cairn("inspect", "--json", directory.toString());
    CliRun verify = cairn("verify", directory.toString());
    CliRun verifyJson = cairn("verify", "--json", directory.toString());

    assertThat(inspect.exitCode()).as(inspect.err()).isZero();
    assertThat(inspect.out())
        .contains("\"cache\": {", "\"tableCount\": 2", "\"entries\": 700")
        .contains("\"keyPlacement\": \"runs\"")
        .contains("\"writeTimes\": true", "\"writeTimes\": false");
    assertThat(verify.exitCode()).as(verify.err()).isZero();
    assertThat(verify.out())
        .startsWith("OK")
        .contains("cache: 700 entries in 2 tables checked: index and pile agree");
    assertThat(verifyJson.out()).contains("\"verifiedEntries\": 700");
  }

  @Test
  void verify_ofOneEntryInOneTable_saysSo() throws Exception {
    try (Cache cache = Cache.open(directory, CacheOptions.defaults())) {
      cache.longTable("only", String.class).put(1, "one");
    }

    CliRun verify = cairn("verify", directory.toString());

    assertThat(verify.exitCode()).as(verify.err()).isZero();
    assertThat(verify.out()).contains("cache: 1 entry in 1 table checked: index and pile agree");
  }

  @Test
  void inspect_ofAPlainPile_saysNothingOfACache() throws Exception {
    TestPiles.create(directory, 10);

    CliRun run = cairn("inspect", directory.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).doesNotContain("cache:");
  }
}
