package dev.cairn.cache;

import dev.cairn.cache.index.HashIndex;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The cache's state in a checkpoint of its pile, and the payload of a table's record.
 *
 * <pre>{@code
 * State      --> Magic:u32, Version:u16, TableCount:u16, Table*, RetiredCount:u32, Retired*,
 *                DroppedCount:u16, Dropped*
 * Table      --> Descriptor, Shard^256
 * Descriptor --> Id:u16, Name:Str, KeyType:Str, ValueType:Str, Seed:u64, EpochMillis:i64,
 *                ExpireAfterWriteMillis:i64, ExpireAfterAccessMillis:i64, Pinned:u8,
 *                MinShare:f64, MaxShare:f64, Placement:u8, WriteTimes:u8
 * Shard      --> Region:u64, Capacity:u32, Count:u32, Dead:u32, Bytes:u64
 * Retired    --> Region:u64, Bytes:u64
 * Dropped    --> Id:u16  (a table dropped since the cache was opened: its records are skipped)
 * Str        --> Length:u16, Utf8:u8^Length
 * }</pre>
 *
 * Big-endian (Java's DataOutput). Magic {@link #MAGIC}, version {@link #FORMAT_VERSION}: an open
 * reads versions {@link #OLDEST_READABLE} and up, and refuses any other. Version 3 has no Placement
 * (its tables are {@link KeyPlacement#HASHED}); a table record logged by a build of version 3 ends
 * before it too. Versions 3 and 4 have no WriteTimes (their tables keep write times, as every entry
 * then did); a table record logged by a build of version 4 ends before it. An expiry of 0 millis
 * means none. Placement: {@link KeyPlacement#code}. WriteTimes: 0 or 1 ({@link
 * TableOptions#writeTimes}). Version 5 also marks the cache's entries stored without a header
 * (EntryLayout, bare entries), which a build of version 4 would misread: it refuses version 5.
 * Version 6 leaves a bare entry's key length and kind bytes out where its block's mark says them
 * (EntryLayout, bare entries; bits a build of version 5 takes for damage): it refuses version 6.
 * The state's bytes are those of version 5.
 */
final class CacheState {
  static final int MAGIC = 0x43434845; // "CCHE"
  static final int FORMAT_VERSION = 6;

  /** The earliest version this build reads: version 3 has no key placement (HASHED). */
  static final int OLDEST_READABLE = 3;

  /** {@link #readDescriptor}'s version for a table record's descriptor. */
  private static final int IN_RECORD = -1;

  /** A table's descriptor and shards, as a checkpoint holds them. */
  record TableImage(
      TableDescriptor descriptor,
      long[] regions,
      int[] capacities,
      int[] counts,
      int[] dead,
      long[] bytes) {

    /** Sets {@code index}'s shards as this image holds them ({@link HashIndex#install}). */
    void installInto(HashIndex index) {
      for (int s = 0; s < HashIndex.SHARDS; s++) {
        index.install(s, regions[s], capacities[s], counts[s], dead[s], bytes[s]);
      }
    }
  }

  /** What a checkpoint holds. */
  record Image(
      List<TableImage> tables, List<CacheCore.Retired> retired, java.util.Set<Integer> dropped) {}

  private CacheState() {}

  /** A table as a checkpoint writes it: its descriptor and its index. */
  record Table(TableDescriptor descriptor, HashIndex index) {}

  static byte[] encode(
      List<Table> tables, List<CacheCore.Retired> retired, java.util.Collection<Integer> dropped) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeShort(FORMAT_VERSION);
      out.writeShort(tables.size());
      for (Table t : tables) {
        writeDescriptor(out, t.descriptor());
        HashIndex index = t.index();
        for (int s = 0; s < HashIndex.SHARDS; s++) {
          out.writeLong(index.regionOf(s));
          out.writeInt(index.capacityOf(s));
          out.writeInt(index.countOf(s));
          out.writeInt(index.deadOf(s));
          out.writeLong(index.bytesOf(s));
        }
      }
      out.writeInt(retired.size());
      for (CacheCore.Retired r : retired) {
        out.writeLong(r.region());
        out.writeLong(r.bytes());
      }
      out.writeShort(dropped.size());
      for (int id : new java.util.TreeSet<>(dropped)) {
        out.writeShort(id);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  static Image decode(byte[] state) {
    List<TableImage> tables = new ArrayList<>();
    List<CacheCore.Retired> retired = new ArrayList<>();
    java.util.Set<Integer> dropped = new java.util.TreeSet<>();
    if (state.length == 0) {
      return new Image(tables, retired, dropped);
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
      int magic = in.readInt();
      if (magic != MAGIC) {
        throw new CacheCorruptionException(
            "cache state in the pile's checkpoint has magic 0x"
                + Integer.toHexString(magic)
                + ", not 0x"
                + Integer.toHexString(MAGIC)
                + ": the pile's metadata is not a cache's");
      }
      int version = in.readUnsignedShort();
      if (version < OLDEST_READABLE || version > FORMAT_VERSION) {
        throw new CacheCorruptionException(
            "cache state of format version "
                + version
                + "; this build reads versions "
                + OLDEST_READABLE
                + " to "
                + FORMAT_VERSION);
      }
      int count = in.readUnsignedShort();
      for (int i = 0; i < count; i++) {
        TableDescriptor d = readDescriptor(in, version);
        long[] regions = new long[HashIndex.SHARDS];
        int[] capacities = new int[HashIndex.SHARDS];
        int[] counts = new int[HashIndex.SHARDS];
        int[] dead = new int[HashIndex.SHARDS];
        long[] bytes = new long[HashIndex.SHARDS];
        for (int s = 0; s < HashIndex.SHARDS; s++) {
          regions[s] = in.readLong();
          capacities[s] = in.readInt();
          counts[s] = in.readInt();
          dead[s] = in.readInt();
          bytes[s] = in.readLong();
          checkShard(d, s, regions[s], capacities[s], counts[s], dead[s]);
        }
        tables.add(new TableImage(d, regions, capacities, counts, dead, bytes));
      }
      int retiredCount = in.readInt();
      for (int i = 0; i < retiredCount; i++) {
        retired.add(new CacheCore.Retired(in.readLong(), in.readLong(), 0));
      }
      int droppedCount = in.readUnsignedShort();
      for (int i = 0; i < droppedCount; i++) {
        dropped.add(in.readUnsignedShort());
      }
    } catch (IOException e) {
      throw new CacheCorruptionException(
          "cache state in the pile's checkpoint is truncated ("
              + state.length
              + " bytes): "
              + e.getMessage());
    }
    return new Image(tables, retired, dropped);
  }

  /**
   * Refuses a shard that no index writes: a capacity other than 0 or a power of two in range (every
   * probe would look in the wrong slots), a region without a capacity or the reverse, or more live
   * and dead slots than the capacity holds.
   */
  private static void checkShard(
      TableDescriptor d, int shard, long region, int capacity, int count, int dead) {
    String problem;
    if (capacity != 0 && !HashIndex.validCapacity(capacity)) {
      problem =
          "of capacity "
              + capacity
              + ", not a power of two from "
              + HashIndex.MIN_CAPACITY
              + " to "
              + HashIndex.MAX_CAPACITY;
    } else if ((region == 0) != (capacity == 0)) {
      problem = "of capacity " + capacity + " in region " + region + " (both 0 or neither)";
    } else if (count < 0 || dead < 0 || (long) count + dead > capacity) {
      problem =
          "of capacity " + capacity + " holding " + count + " entries and " + dead + " tombstones";
    } else {
      return;
    }
    throw new CacheCorruptionException(
        "table \""
            + d.name()
            + "\" has index shard "
            + shard
            + " "
            + problem
            + " in the pile's checkpoint: the checkpoint is damaged");
  }

  static byte[] encodeDescriptor(TableDescriptor d) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      writeDescriptor(out, d);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static TableDescriptor decodeDescriptor(byte[] payload) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
      return readDescriptor(in, IN_RECORD);
    } catch (IOException e) {
      throw new CacheCorruptionException(
          "table record truncated (" + payload.length + " bytes): " + e.getMessage());
    }
  }

  private static void writeDescriptor(DataOutputStream out, TableDescriptor d) throws IOException {
    out.writeShort(d.id());
    out.writeUTF(d.name());
    out.writeUTF(d.keyType());
    out.writeUTF(d.valueType());
    out.writeLong(d.seed());
    out.writeLong(d.epochMillis());
    TableOptions o = d.options();
    out.writeLong(o.expireAfterWrite() == null ? 0 : o.expireAfterWrite().toMillis());
    out.writeLong(o.expireAfterAccess() == null ? 0 : o.expireAfterAccess().toMillis());
    out.writeByte(o.pinned() ? 1 : 0);
    out.writeDouble(o.minShare());
    out.writeDouble(o.maxShare());
    out.writeByte(d.placement().code());
    out.writeByte(o.writeTimes() ? 1 : 0);
  }

  /**
   * A descriptor of a state of format {@code version}, or of a table record ({@link #IN_RECORD}).
   * Format 3 has no placement byte (its tables hash every key), nor has a record a build of format
   * 3 logged, which ends before it.
   */
  private static TableDescriptor readDescriptor(DataInputStream in, int version)
      throws IOException {
    int id = in.readUnsignedShort();
    String name = in.readUTF();
    String keyType = in.readUTF();
    String valueType = in.readUTF();
    long seed = in.readLong();
    long epoch = in.readLong();
    long writeMillis = in.readLong();
    long accessMillis = in.readLong();
    boolean pinned = in.readByte() != 0;
    double minShare = in.readDouble();
    double maxShare = in.readDouble();
    KeyPlacement placement = KeyPlacement.HASHED;
    if (version > 3 || (version == IN_RECORD && in.available() > 0)) {
      placement = KeyPlacement.ofCode(in.readUnsignedByte(), name);
    }
    boolean writeTimes = true; // versions 3 and 4: every entry kept its write time
    if (version > 4 || (version == IN_RECORD && in.available() > 0)) {
      int code = in.readUnsignedByte();
      if (code > 1) {
        throw new CacheCorruptionException(
            "table \"" + name + "\" has write times " + code + " in its descriptor: 0 or 1");
      }
      writeTimes = code == 1;
    }
    TableOptions options;
    try {
      options =
          new TableOptions(
              writeMillis == 0 ? null : Duration.ofMillis(writeMillis),
              accessMillis == 0 ? null : Duration.ofMillis(accessMillis),
              pinned,
              minShare,
              maxShare,
              writeTimes);
    } catch (IllegalArgumentException e) {
      throw new CacheCorruptionException(
          "table \"" + name + "\" has invalid stored options: " + e.getMessage());
    }
    return new TableDescriptor(id, name, keyType, valueType, seed, epoch, options, placement);
  }
}
