package dev.cairn.ycsb;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the report of one run of a core workload with {@code dataintegrity=true} must show: only OK
 * statuses, every record read verified by YCSB ({@code VERIFY}), and the mix of operations the
 * workload asks for. Workload E shows that scans are not implemented, and nothing else failing.
 */
final class RunCheck {
  private RunCheck() {}

  /**
   * Asserts the report {@code run} of {@code operations} operations of {@code workload} (a file
   * name of workloads/); returns the records it inserted.
   */
  static long assertRun(String workload, YcsbReport run, int operations) {
    long reads = run.count("READ", "OK");
    long updates = run.count("UPDATE", "OK");
    long inserts = run.count("INSERT", "OK");
    if (workload.equals("workloade")) {
      long scans = run.count("SCAN", "NOT_IMPLEMENTED");
      assertThat(run.notOk())
          .as(workload + ": statuses other than OK")
          .containsOnlyKeys("SCAN NOT_IMPLEMENTED");
      assertThat(inserts).as(workload + ": inserts").isPositive();
      assertThat(scans + inserts).as(workload + ": operations").isEqualTo(operations);
      return inserts;
    }
    assertThat(run.notOk()).as(workload + ": statuses other than OK").isEmpty();
    assertThat(reads).as(workload + ": reads").isPositive();
    assertThat(run.count("VERIFY", "OK"))
        .as(workload + ": records read and verified")
        .isEqualTo(reads);
    switch (workload) {
      case "workloada", "workloadb" -> {
        assertThat(updates).as(workload + ": updates").isPositive();
        assertThat(reads + updates).as(workload + ": operations").isEqualTo(operations);
      }
      case "workloadc" -> assertThat(reads).as(workload + ": reads").isEqualTo(operations);
      case "workloadf" -> {
        assertThat(reads)
            .as(workload + ": reads, those of the read-modify-writes included")
            .isEqualTo(operations);
        assertThat(updates).as(workload + ": read-modify-writes").isPositive();
      }
      case "workloadd" -> {
        assertThat(inserts).as(workload + ": inserts").isPositive();
        assertThat(reads + inserts).as(workload + ": operations").isEqualTo(operations);
      }
      default -> throw new AssertionError("no expectations for " + workload);
    }
    return inserts;
  }
}
