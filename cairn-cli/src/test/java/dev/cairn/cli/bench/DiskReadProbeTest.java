package dev.cairn.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class DiskReadProbeTest {

  @Test
  void parse_readsDdsByteCountAndTime() {
    String dd =
        "64+0 records in\n64+0 records out\n"
            + "67108864 bytes (67 MB, 64 MiB) copied, 0.5 s, 134 MB/s\n";

    assertThat(DiskReadProbe.parse(dd)).hasValueCloseTo(134.217728, Offset.offset(1e-6));
  }

  @Test
  void parse_ofSomethingElse_isEmpty() {
    assertThat(DiskReadProbe.parse("dd: failed to open 'x': No such file")).isEmpty();
  }
}
