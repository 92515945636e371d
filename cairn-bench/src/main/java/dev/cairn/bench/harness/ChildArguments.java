package dev.cairn.bench.harness;

import dev.cairn.pile.Durability;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The arguments the benches pass to their child JVMs: the cache and PetClinic benches' {@code
 * name=value} pairs, and a durability as any child names it.
 */
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

  /**
   * The durability a child's argument names, in any case. A loop over {@code values()}, not {@code
   * Durability.valueOf}: that one reflects on the enum, whose first use costs a restart probe
   * milliseconds that are the harness's and not the store's.
   *
   * @throws IllegalArgumentException if it names none
   */
  public static Durability durability(String name) {
    for (Durability d : Durability.values()) {
      if (d.name().equalsIgnoreCase(name)) {
        return d;
      }
    }
    throw new IllegalArgumentException("no durability named " + name);
  }

  /** {@code values} as {@code name=value} arguments, in order. */
  public static List<String> of(Map<String, ?> values) {
    return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
  }
}
