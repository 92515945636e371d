package dev.cairn.pile;

import dev.cairn.codec.TypeCatalog;
import dev.cairn.codec.TypeSchema;
import dev.cairn.durability.CorruptFileException;
import dev.cairn.durability.DurabilityFailedException;
import dev.cairn.durability.FormatVersionException;
import dev.cairn.durability.file.FileHandle;
import dev.cairn.durability.file.FileLayer;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The schemas of a persistent pile's object types, in a file beside its segments: the type registry
 * lives with the data. A new schema is appended and forced before the registry hands out its id, so
 * no object can be stored, let alone survive a crash, whose schema is not durable (the seed
 * system's "Bad SLIM format header" bug). Independent of the pile's durability level: even with
 * {@link Durability#NONE} a schema is forced at once (it is rare).
 *
 * <pre>
 * CatalogFile --> Magic:u64 ("CAIRN-TC"), Version:u32, Zero:u32, Entry*
 * Entry       --> Length:u32, Crc32c:u32 (of the schema bytes), Schema[Length]
 * </pre>
 *
 * A crash while appending leaves a torn last entry, which {@link #load()} ignores: its id was never
 * handed out. An invalid entry followed by more bytes is corruption.
 */
final class PileTypeCatalog implements TypeCatalog {
  static final String FILE_NAME = "types.cat";
  static final long MAGIC = PileFiles.magic("CAIRN-TC");
  private static final int HEADER_BYTES = 16;
  private static final int MAX_SCHEMA_BYTES = 1 << 20;

  private final FileLayer layer;
  private final Path file;
  private final boolean readOnly;
  // guarded by this: touched by an append's own thread while its caller holds this and waits
  private FileHandle handle; // opened at the first append
  private long end; // guarded by this: where the next entry goes

  PileTypeCatalog(FileLayer layer, Path directory, boolean readOnly) {
    this.layer = layer;
    this.file = directory.resolve(FILE_NAME);
    this.readOnly = readOnly;
  }

  /** Writes an empty catalog (a new pile), forced; the caller syncs the directory. */
  static void create(FileLayer layer, Path directory) throws IOException {
    try (FileHandle out = layer.open(directory.resolve(FILE_NAME), FileLayer.OpenMode.CREATE)) {
      out.truncate(0);
      out.write(header(), 0);
      out.force();
    }
  }

  private static MemorySegment header() {
    MemorySegment header = MemorySegment.ofArray(new byte[HEADER_BYTES]);
    header.set(Journal.U64, 0, MAGIC);
    header.set(Journal.U32, 8, PileFiles.FORMAT_VERSION);
    return header;
  }

  @Override
  public synchronized List<TypeSchema> load() {
    List<TypeSchema> schemas = new ArrayList<>();
    try {
      if (!layer.exists(file)) { // a pile created before catalogs were kept: none stored yet
        if (!readOnly) {
          create(layer, file.getParent());
          layer.syncDirectory(file.getParent());
        }
        end = HEADER_BYTES;
        return schemas;
      }
      byte[] bytes;
      try (FileHandle in = layer.open(file, FileLayer.OpenMode.READ)) {
        bytes = new byte[Math.toIntExact(in.size())];
        in.read(MemorySegment.ofArray(bytes), 0);
      }
      MemorySegment all = MemorySegment.ofArray(bytes);
      if (bytes.length < HEADER_BYTES || all.get(Journal.U64, 0) != MAGIC) {
        throw new FormatVersionException(
            file, "not a Cairn type catalog", PileFiles.FORMAT_VERSION);
      }
      int version = all.get(Journal.U32, 8);
      if (version != PileFiles.FORMAT_VERSION) {
        throw new FormatVersionException(file, version, PileFiles.FORMAT_VERSION);
      }
      long at = HEADER_BYTES;
      while (at + 8 <= bytes.length) {
        int length = all.get(Journal.U32, at);
        int crc = all.get(Journal.U32, at + 4);
        boolean whole =
            length > 0
                && length <= MAX_SCHEMA_BYTES
                && at + 8 + length <= bytes.length
                && PileFiles.crc(all.asSlice(at + 8, length)) == crc;
        if (!whole) {
          checkTornTail(all, at);
          if (!readOnly) { // cut it off, so no later append can leave its stale bytes behind
            try (FileHandle out = layer.open(file, FileLayer.OpenMode.READ_WRITE)) {
              out.truncate(at);
              out.force();
            }
          }
          break;
        }
        byte[] schema =
            all.asSlice(at + 8, length).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        try {
          schemas.add(TypeSchema.fromBytes(schema));
        } catch (RuntimeException e) {
          throw new CorruptFileException(
              file, at, "type schema does not decode: " + e.getMessage(), e);
        }
        at += 8 + length;
      }
      end = at;
      return schemas;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot read the type catalog " + file, e);
    }
  }

  /** What follows an invalid entry must be a torn append: nothing but zeros after it. */
  private void checkTornTail(MemorySegment all, long at) {
    // an append writes one entry at the end; a crash can leave that entry partly written,
    // but never a valid entry after it
    long length = all.byteSize();
    int entryLength = all.get(Journal.U32, at);
    long entryEnd =
        entryLength > 0 && entryLength <= MAX_SCHEMA_BYTES
            ? Math.min(length, at + 8 + entryLength)
            : length;
    for (long i = entryEnd; i < length; i++) {
      if (all.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) != 0) {
        throw new CorruptFileException(
            file, at, "invalid type schema entry before the end of" + " the catalog");
      }
    }
  }

  @Override
  public synchronized void onNewSchema(TypeSchema schema) {
    if (readOnly) {
      throw new ReadOnlyPileException(
          file.getParent(), "cannot store new type " + schema.typeName());
    }
    byte[] bytes = schema.toBytes();
    MemorySegment entry = MemorySegment.ofArray(new byte[8 + bytes.length]);
    entry.set(Journal.U32, 0, bytes.length);
    entry.set(Journal.U32, 4, PileFiles.crc(MemorySegment.ofArray(bytes)));
    MemorySegment.copy(MemorySegment.ofArray(bytes), 0, entry, 8, bytes.length);
    // on a thread of its own: the caller is a user's thread, which may be interrupted (OwnThread)
    OwnThread.run(
        "cairn-catalog " + file,
        () -> {
          try {
            if (handle == null) {
              handle = layer.open(file, FileLayer.OpenMode.READ_WRITE);
            }
            handle.write(entry, end);
            handle.force();
            end += entry.byteSize();
          } catch (IOException e) {
            throw new DurabilityFailedException(
                "could not store the schema of "
                    + schema.typeName()
                    + " in "
                    + file
                    + "; objects of it cannot be stored",
                e);
          }
        });
  }

  synchronized void close() throws IOException {
    if (handle != null) {
      handle.close();
      handle = null;
    }
  }
}
