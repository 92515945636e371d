package dev.cairn.pile;

import dev.cairn.codec.Utf8;
import dev.cairn.durability.CorruptFileException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A pile's named roots: name to pointer, so that data in a persistent pile can be found again after
 * a restart without keeping pointers elsewhere ({@link Pile#root}).
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Durability: a change is applied here, then logged as one RootRecord while this directory's
 * lock is held (R1: the log's order of root records is the order of their changes), and the
 * writer waits for the record as the pile's durability says. A checkpoint writes every root
 * into its metadata file (the Roots section of PileFiles.metaBytes). Because a change is
 * applied before it is logged, every root record before a checkpoint's LSN C is in the
 * checkpoint's copy (R2); a copy may also hold later changes, which replay from C sets again
 * (a record sets an absolute value, so replaying it twice is harmless).
 *
 * Concurrency: reads are lock-free (a ConcurrentHashMap); changes and copies take the lock.
 * }</pre>
 *
 * <pre>
 * RootRecord --> Pointer:u64 (0: removed), NameLength:u16, Name:utf8[NameLength]
 * Roots      --> (Pointer:u64, NameLength:u16, Name:utf8[NameLength])^*   sorted by name
 * </pre>
 */
final class RootDirectory {

  /** The longest name, in UTF-8 bytes. */
  static final int MAX_NAME_BYTES = 255;

  /** The most roots a pile holds: a directory for finding data, not a map to keep data in. */
  static final int MAX_ROOTS = 4096;

  /** Bytes of one entry before its name: Pointer, NameLength. */
  static final int ENTRY_PREFIX_BYTES = RedoLayout.ROOT_NAME_OFFSET;

  /** A bound on the Roots section of a metadata file. */
  static final long MAX_SECTION_BYTES = (long) MAX_ROOTS * (ENTRY_PREFIX_BYTES + MAX_NAME_BYTES);

  private final Map<String, Long> roots = new ConcurrentHashMap<>();

  long get(String name) {
    return roots.getOrDefault(name, Pile.NULL);
  }

  /** A sorted copy. */
  Map<String, Long> copy() {
    synchronized (this) {
      return new TreeMap<>(roots);
    }
  }

  /**
   * Checks a name: not blank, at most {@link #MAX_NAME_BYTES} bytes of UTF-8.
   *
   * @return its UTF-8 bytes
   */
  static byte[] checkName(String name) {
    if (name.isBlank()) {
      throw new IllegalArgumentException("a root's name must not be blank: name=\"" + name + "\"");
    }
    byte[] bytes = Utf8.encode(name);
    if (bytes.length > MAX_NAME_BYTES) {
      throw new IllegalArgumentException(
          "a root's name is too long: utf8Bytes=" + bytes.length + " limit=" + MAX_NAME_BYTES);
    }
    return bytes;
  }

  /** Sets ({@code pointer} not NULL) or removes a root; the caller holds this object's lock. */
  void applyLocked(String name, long pointer) {
    if (pointer == Pile.NULL) {
      roots.remove(name);
    } else {
      if (!roots.containsKey(name) && roots.size() >= MAX_ROOTS) {
        throw new IllegalStateException(
            "a pile holds at most "
                + MAX_ROOTS
                + " roots: remove one"
                + " before adding \""
                + name
                + "\" (keep a directory of your own in a value instead)");
      }
      roots.put(name, pointer);
    }
  }

  /** A root record's payload. */
  static MemorySegment record(byte[] name, long pointer) {
    MemorySegment out = MemorySegment.ofArray(new byte[ENTRY_PREFIX_BYTES + name.length]);
    out.set(Journal.U64, RedoLayout.ROOT_POINTER_OFFSET, pointer);
    out.set(Journal.U16, RedoLayout.ROOT_NAME_LENGTH_OFFSET, (short) name.length);
    MemorySegment.copy(MemorySegment.ofArray(name), 0, out, ENTRY_PREFIX_BYTES, name.length);
    return out;
  }

  /** Replays a root record. */
  void replay(MemorySegment payload) {
    int length = Short.toUnsignedInt(payload.get(Journal.U16, RedoLayout.ROOT_NAME_LENGTH_OFFSET));
    if (payload.byteSize() != ENTRY_PREFIX_BYTES + length
        || length == 0
        || length > MAX_NAME_BYTES) {
      throw new PileCorruptionException(
          "root record of " + payload.byteSize() + " bytes names " + length + " bytes");
    }
    byte[] nameBytes =
        payload
            .asSlice(ENTRY_PREFIX_BYTES, length)
            .toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    String name = Utf8.decode(nameBytes, 0, nameBytes.length);
    synchronized (this) {
      long pointer = payload.get(Journal.U64, RedoLayout.ROOT_POINTER_OFFSET);
      if (pointer == Pile.NULL) {
        roots.remove(name);
      } else {
        roots.put(name, pointer);
      }
    }
  }

  /** The encoded Roots section of {@code copy}. */
  static byte[] encode(Map<String, Long> copy) {
    int bytes = 0;
    for (String name : copy.keySet()) {
      bytes += ENTRY_PREFIX_BYTES + Utf8.encodedLength(name);
    }
    MemorySegment out = MemorySegment.ofArray(new byte[bytes]);
    long at = 0;
    for (Map.Entry<String, Long> root : copy.entrySet()) {
      MemorySegment entry = record(Utf8.encode(root.getKey()), root.getValue());
      MemorySegment.copy(entry, 0, out, at, entry.byteSize());
      at += entry.byteSize();
    }
    return out.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
  }

  /** Loads the Roots section {@code [at, at + length)} of metadata file {@code file}. */
  void load(Path file, MemorySegment meta, long at, long length) {
    long end = at + length;
    while (at < end) {
      if (end - at < ENTRY_PREFIX_BYTES) {
        throw new CorruptFileException(file, at, "roots section ends inside an entry");
      }
      long pointer = meta.get(Journal.U64, at + RedoLayout.ROOT_POINTER_OFFSET);
      int nameBytes =
          Short.toUnsignedInt(meta.get(Journal.U16, at + RedoLayout.ROOT_NAME_LENGTH_OFFSET));
      if (nameBytes == 0
          || nameBytes > MAX_NAME_BYTES
          || end - at - ENTRY_PREFIX_BYTES < nameBytes
          || pointer == Pile.NULL) {
        throw new CorruptFileException(
            file,
            at,
            "invalid root entry: nameBytes="
                + nameBytes
                + " pointer="
                + pointer
                + " (the section ends at "
                + end
                + ")");
      }
      byte[] bytes =
          meta.asSlice(at + ENTRY_PREFIX_BYTES, nameBytes)
              .toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
      String name = Utf8.decode(bytes, 0, bytes.length);
      roots.put(name, pointer);
      at += ENTRY_PREFIX_BYTES + nameBytes;
    }
  }
}
