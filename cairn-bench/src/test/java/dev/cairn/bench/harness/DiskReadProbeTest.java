package dev.cairn.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskReadProbeTest {

  @Test
  void parse_readsDdsByteCountAndTime() {
    String dd =
        """
        64+0 records in
        64+0 records out
        67108864 bytes (67 MB, 64 MiB) copied, 0.5 s, 134 MB/s
        """;

    assertThat(DiskReadProbe.parse(dd)).hasValueCloseTo(134.217728, Offset.offset(1e-6));
  }

  @Test
  void parse_ofSomethingElse_isEmpty() {
    assertThat(DiskReadProbe.parse("dd: failed to open 'x': No such file")).isEmpty();
  }

  @Test
  void readMBps_ofSeveralFiles_readsEachAndIsEmptyIfOneCannotBeRead(@TempDir Path temp)
      throws Exception {
    Path a = Files.write(temp.resolve("a"), new byte[1 << 20]);
    Path b = Files.write(temp.resolve("b"), new byte[1 << 20]);

    assertThat(DiskReadProbe.readMBps(List.of(a, b)).orElse(-1)).isPositive();
    assertThat(DiskReadProbe.readMBps(List.of(a, temp.resolve("missing")))).isEmpty();
    assertThat(DiskReadProbe.readMBps(List.<Path>of())).isEmpty();
  }
}
