package dev.cairn.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a run ran on, for the report's header: the processor, cores, memory, operating system, Java,
 * and when. Read once, when the report is written; a fact this machine will not tell (no {@code
 * /proc/cpuinfo}, say) is left out rather than guessed.
 */
public final class MachineDescription {
  private MachineDescription() {}

  /** This machine, now: label to value, in the order to show them. */
  public static Map<String, String> current() {
    Map<String, String> facts = new LinkedHashMap<>();
    String cpu = cpuModel();
    if (cpu != null) {
      facts.put("processor", cpu);
    }
    facts.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      facts.put(
          "memory",
          String.format(Locale.ROOT, "%.1f GiB", os.getTotalMemorySize() / (double) (1L << 30)));
    }
    facts.put(
        "system",
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"));
    facts.put(
        "java",
        System.getProperty("java.vm.vendor", "")
            + " "
            + System.getProperty("java.vm.name", "")
            + " "
            + Runtime.version());
    String javaOptions = System.getenv("JAVA_OPTS");
    if (javaOptions != null && !javaOptions.isBlank()) {
      facts.put("JAVA_OPTS", javaOptions);
    }
    facts.put(
        "written",
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .format(Instant.now().atOffset(ZoneOffset.UTC)));
    return facts;
  }

  /** The first {@code model name} of {@code /proc/cpuinfo}, or null where there is none. */
  private static String cpuModel() {
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8);
      for (String line : lines) {
        if (line.startsWith("model name")) {
          int colon = line.indexOf(':');
          return colon < 0 ? null : line.substring(colon + 1).strip();
        }
      }
      return null;
    } catch (IOException | SecurityException e) {
      return null; // not Linux, or not readable: the report says nothing rather than guess
    }
  }
}
