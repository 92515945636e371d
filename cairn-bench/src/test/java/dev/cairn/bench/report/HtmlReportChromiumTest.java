package dev.cairn.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens the page of {@code cairn bench --html} in headless Chromium (Debian's {@code chromium}
 * package), as a reader's browser would, and checks that the charts render: the DOM Chromium built
 * holds every chart, bar, line and point, and its screenshot shows each store's colour over many
 * pixels. The page and the screenshot are kept in {@code target/html-report/} as the test's
 * artifacts, to be looked at.
 *
 * <p>Chromium is found at {@code -Dcairn.chromium=PATH}, else {@code /usr/bin/chromium}. Where it
 * is absent the test is skipped, unless the environment variable {@code CAIRN_REQUIRE_CHROMIUM} is
 * set, as {@code .ci/run} sets it after installing the package: then its absence fails.
 */
class HtmlReportChromiumTest {
  private static final Path ARTIFACTS = Path.of("target", "html-report");
  private static final int WIDTH = 1400;
  private static final int HEIGHT = 3600;

  @Test
  void theChartsRender_inHeadlessChromium(@TempDir Path profile) throws Exception {
    Path chromium = chromium();
    Files.createDirectories(ARTIFACTS);
    Path page = ARTIFACTS.resolve("report.html").toAbsolutePath();
    Path screenshot = ARTIFACTS.resolve("report.png").toAbsolutePath();
    Files.deleteIfExists(screenshot);
    Files.writeString(
        page,
        HtmlReport.render(
            SampleRuns.cache(), "cairn bench --workload cache", MachineDescription.current()),
        StandardCharsets.UTF_8);

    String dom = run(chromium, profile.resolve("dom"), "--dump-dom", page.toUri().toString());
    assertThat(count(dom, "<svg class=\"chart\"")).isEqualTo(SampleRuns.CHARTS);
    assertThat(count(dom, "<rect class=\"bar\"")).isEqualTo(SampleRuns.BARS);
    assertThat(count(dom, "<polyline class=\"line\"")).isEqualTo(SampleRuns.STORES.length);
    assertThat(count(dom, "<circle class=\"point\"")).isEqualTo(SampleRuns.STORES.length * 4);

    run(
        chromium,
        profile.resolve("shot"),
        "--screenshot=" + screenshot,
        "--window-size=" + WIDTH + "," + HEIGHT,
        page.toUri().toString());
    BufferedImage image = ImageIO.read(screenshot.toFile());
    assertThat(image).as("a PNG at " + screenshot).isNotNull();
    // each store's bars are drawn with crisp edges in its colour: 5 bars of 18 px height each
    // and at least a pixel wide, 3 ratio bars for the peers, and its legend square
    int[] palette = {0x2b6cb0, 0xdd6b20, 0x38a169};
    for (int i = 0; i < palette.length; i++) {
      assertThat(pixels(image, palette[i]))
          .as("pixels of %s's colour #%06x in %s", SampleRuns.STORES[i], palette[i], screenshot)
          .isGreaterThan(2_000);
    }
  }

  /** Chromium's path, or a skip (a failure under CAIRN_REQUIRE_CHROMIUM) when it is absent. */
  private static Path chromium() {
    Path path = Path.of(System.getProperty("cairn.chromium", "/usr/bin/chromium"));
    if (Files.isExecutable(path)) {
      return path;
    }
    String required = System.getenv("CAIRN_REQUIRE_CHROMIUM");
    String message =
        "no Chromium at "
            + path
            + ": install Debian's package (apt-get install chromium) or give -Dcairn.chromium";
    if (required != null && !required.isBlank()) {
      throw new AssertionError(message + " (CAIRN_REQUIRE_CHROMIUM is set)");
    }
    Assumptions.abort(message);
    return path;
  }

  /**
   * Runs headless Chromium once with a fresh profile, its network quiet (this machine has none),
   * and returns what it printed on stdout.
   */
  private static String run(Path chromium, Path profile, String... args)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage", // a container's /dev/shm may be too small for it
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
                "--user-data-dir=" + profile));
    command.addAll(List.of(args));
    Path out = Files.createTempFile("chromium", ".out");
    Path err = Files.createTempFile("chromium", ".err");
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
        throw new AssertionError("Chromium did not finish in 120 s: " + String.join(" ", command));
      }
      assertThat(process.exitValue())
          .as("Chromium's exit code; it printed:%n%s", Files.readString(err))
          .isZero();
      return Files.readString(out, StandardCharsets.UTF_8);
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
      n++;
    }
    return n;
  }

  private static int pixels(BufferedImage image, int rgb) {
    int n = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if ((image.getRGB(x, y) & 0xffffff) == rgb) {
          n++;
        }
      }
    }
    return n;
  }
}
