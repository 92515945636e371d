package dev.cairn.bench.cache;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code name=value} arguments the cache bench passes to its child JVMs. */
final class ChildArguments {
  private ChildArguments() {}

  static Map<String, String> parse(String[] args) {
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

  static List<String> of(Map<String, ?> values) {
    return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
  }
}
