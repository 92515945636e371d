package dev.cairn.bench.harness;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code name=value} arguments the cache and PetClinic benches pass to their child JVMs. */
public final class ChildArguments {
  private ChildArguments() {}

  /**
   * The arguments as a map, in order.
   *
   * @throws IllegalArgumentException if one is not {@code name=value}
   */
  public static Map<String, String> parse(String[] args) {
    Map<String, String> map = new LinkedHashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("expected name=value, got: " + arg);
      }
      map.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    return map;
  }

  /** {@code values} as {@code name=value} arguments, in order. */
  public static List<String> of(Map<String, ?> values) {
    return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
  }
}
