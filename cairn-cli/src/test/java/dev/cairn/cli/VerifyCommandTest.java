package dev.cairn.cli;

import static dev.cairn.cli.CliRun.cairn;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class VerifyCommandTest {
  @TempDir Path directory;

  @Test
  void verify_ofAGoodPile_printsOkAndASummaryAndExitsZero() throws Exception {
    TestPiles.create(directory, 1000);

    CliRun run = cairn("verify", directory.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().lines().toList()).first().isEqualTo("OK");
    assertThat(run.out())
        .contains("1,000 objects", " segments, ", " bytes checked, ", "0 log records checked");
  }

  @Test
  void verify_withJson_ofAGoodPile_saysOk() throws Exception {
    TestPiles.create(directory, 10);

    CliRun run = cairn("verify", "--json", directory.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("\"ok\": true", "\"bytesChecked\": ", "\"objects\": 10");
  }

  @Test
  void verify_afterASegmentHeaderByteFlips_exitsOneNamingTheFileAndOffset() throws Exception {
    TestPiles.create(directory, 1000);
    Path segment = directory.resolve("seg-00000.dat");
    flipByte(segment, 13);

    CliRun run = cairn("verify", directory.toString());

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.SOFTWARE);
    assertThat(run.out())
        .startsWith("DAMAGED")
        .contains("corruptFile", segment.toString(), "offset", "checksum");
  }

  @Test
  void verify_withJson_afterDamage_reportsFileAndOffset() throws Exception {
    TestPiles.create(directory, 1000);
    Path segment = directory.resolve("seg-00000.dat");
    flipByte(segment, 13);

    CliRun run = cairn("verify", "--json", directory.toString());

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.SOFTWARE);
    assertThat(run.out())
        .contains("\"ok\": false", "\"problem\": \"corruptFile\"")
        .contains("\"file\": \"" + segment + "\"", "\"offset\": ");
  }

  @Test
  void verify_ofAnEmptyDirectory_exitsOne() {
    CliRun run = cairn("verify", directory.toString());

    assertThat(run.exitCode()).isEqualTo(CommandLine.ExitCode.SOFTWARE);
    assertThat(run.err()).contains("no pile in");
  }

  @Test
  void verify_withoutADirectory_exitsTwo() {
    assertThat(cairn("verify").exitCode()).isEqualTo(CommandLine.ExitCode.USAGE);
  }

  /** Inverts one byte of {@code file} in place. */
  static void flipByte(Path file, long offset) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      channel.read(one, offset);
      one.put(0, (byte) ~one.get(0)).rewind();
      channel.write(one, offset);
    }
  }
}
