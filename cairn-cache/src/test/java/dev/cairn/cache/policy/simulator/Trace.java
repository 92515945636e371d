package dev.cairn.cache.policy.simulator;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * An access trace from {@code src/test/resources/traces} (its README gives the formats and the
 * sources), with its keys renumbered densely: key {@code i} of the trace is {@code keys[i]}, in
 * {@code 0..distinct-1}, numbered in order of first appearance.
 */
public record Trace(String name, int[] keys, int distinct) {
  private static final Map<String, Trace> LOADED = new ConcurrentHashMap<>();

  /** The number of references. */
  public int length() {
    return keys.length;
  }

  /** The first {@code references} references of this trace. */
  public Trace prefix(int references) {
    int[] head = Arrays.copyOf(keys, Math.min(references, keys.length));
    int distinctInHead = 0;
    for (int key : head) {
      distinctInHead = Math.max(distinctInHead, key + 1);
    }
    return new Trace(name + "[0.." + head.length + ")", head, distinctInHead);
  }

  /** Loads the trace named as in the README's table (e.g. {@code lirs-loop}), once per JVM. */
  public static Trace load(String name) {
    return LOADED.computeIfAbsent(name, Trace::read);
  }

  private static Trace read(String name) {
    boolean lirs = name.startsWith("lirs-");
    String resource = "/traces/" + name + (lirs ? ".trace.gz" : ".trace.xz");
    try (InputStream raw = Trace.class.getResourceAsStream(resource)) {
      if (raw == null) {
        throw new IllegalArgumentException("no such trace on the class path: " + resource);
      }
      InputStream in = new BufferedInputStream(raw, 1 << 16);
      Renumbering keys = new Renumbering();
      if (lirs) {
        BufferedReader lines =
            new BufferedReader(
                new InputStreamReader(new GZIPInputStream(in, 1 << 16), StandardCharsets.US_ASCII));
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          String key = line.strip();
          if (!key.isEmpty() && !key.equals("*")) {
            keys.add(Long.parseLong(key));
          }
        }
      } else {
        DataInputStream data =
            new DataInputStream(new BufferedInputStream(new XZInputStream(in), 1 << 16));
        while (true) {
          int key;
          try {
            key = data.readInt();
          } catch (EOFException end) {
            break;
          }
          keys.add(key);
        }
      }
      return new Trace(name, keys.keys(), keys.distinct());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read trace " + resource, e);
    }
  }

  private static final class Renumbering {
    private final Map<Long, Integer> ids = new HashMap<>();
    private int[] keys = new int[1 << 16];
    private int length;

    void add(long key) {
      Integer id = ids.get(key);
      if (id == null) {
        id = ids.size();
        ids.put(key, id);
      }
      if (length == keys.length) {
        keys = Arrays.copyOf(keys, keys.length * 2);
      }
      keys[length++] = id;
    }

    int[] keys() {
      return Arrays.copyOf(keys, length);
    }

    int distinct() {
      return ids.size();
    }
  }
}
