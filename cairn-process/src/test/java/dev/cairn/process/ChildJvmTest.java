package dev.cairn.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ChildJvmTest {

  /** The child: prints its arguments and one system property, and exits with 3. */
  public static final class Echo {
    public static void main(String[] args) {
      System.out.print(String.join(",", args) + ";" + System.getProperty("cairn.probe"));
      System.exit(3);
    }
  }

  @Test
  void theChildRunsTheClass_withItsOptionsAndArguments() throws Exception {
    List<String> command =
        ChildJvm.command(Echo.class, List.of(), List.of("-Dcairn.probe=yes"), List.of("a", "b"));

    assertThat(command.get(0)).endsWith("java");
    assertThat(command).containsSubsequence("-Dcairn.probe=yes", "-cp");
    assertThat(command.subList(command.size() - 3, command.size()))
        .containsExactly(Echo.class.getName(), "a", "b");
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .isEqualTo("a,b;yes");
    assertThat(child.exitValue()).isEqualTo(3);
  }

  @Test
  void aClassWithNoLocation_isRefusedByName() {
    assertThatThrownBy(
            () -> ChildJvm.command(Echo.class, List.of(String.class), List.of(), List.of()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("java.lang.String");
  }

  @Test
  void theClassPathHoldsTheClassesAlongside() throws IOException {
    List<String> command = ChildJvm.command(Echo.class, List.of(Test.class), List.of(), List.of());
    String classPath = command.get(command.indexOf("-cp") + 1);
    assertThat(classPath).contains("junit");
  }
}
