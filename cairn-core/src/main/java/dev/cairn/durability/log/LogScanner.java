package dev.cairn.durability.log;

import static dev.cairn.durability.log.LogLayout.ALIGNMENT;
import static dev.cairn.durability.log.LogLayout.CRC_OFFSET;
import static dev.cairn.durability.log.LogLayout.DURABLE_LAG_OFFSET;
import static dev.cairn.durability.log.LogLayout.EPOCH_OFFSET;
import static dev.cairn.durability.log.LogLayout.FILE_HEADER_BYTES;
import static dev.cairn.durability.log.LogLayout.FIRST_USER_TYPE;
import static dev.cairn.durability.log.LogLayout.LENGTH_OFFSET;
import static dev.cairn.durability.log.LogLayout.LSN_LENGTH;
import static dev.cairn.durability.log.LogLayout.LSN_OFFSET;
import static dev.cairn.durability.log.LogLayout.MAX_PAYLOAD_BYTES;
import static dev.cairn.durability.log.LogLayout.PAYLOAD_OFFSET;
import static dev.cairn.durability.log.LogLayout.RECORD_HEADER_BYTES;
import static dev.cairn.durability.log.LogLayout.SEQUENCE_UNUSED;
import static dev.cairn.durability.log.LogLayout.TYPE_OFFSET;

import dev.cairn.durability.CorruptLogException;
import dev.cairn.durability.file.FileHandle;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Reads records from a {@link LogFiles} in LSN order, and decides where the log ends: the rules are
 * in {@link LogLayout} ("Validity and the end of the log").
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * Reading: a window of the logical log (1 MiB, grown for a larger record) is read with
 * positional reads that may span files; every file the window touches must be held, i.e.
 * its header must name the sequence the LSN needs.
 *
 * The end: at the first invalid record (at LSN p) the scanner looks ahead for proof that p
 * had been durable: any valid record q with q.Lsn - q.DurableLag > p. It probes every
 * 8-aligned position in the rest of p's file, and in every other slot whose header is
 * invalid or names a sequence after p's (slots holding an older sequence, or none, cannot
 * hold a record after p). In a slot with a valid header a candidate's Lsn must equal its
 * position's; elsewhere the Lsn must map to the very slot and offset it sits at. Only then
 * is the checksum computed, so the probe costs one 8-byte compare per 8 bytes read, and less
 * over zeros (a file's unwritten space): a position whose Lsn field is zero is no candidate
 * (a proof's Lsn is above p), and the probe jumps from there to the first position whose Lsn
 * field holds a byte that is not zero, found by one vectorized compare of the chunk with zeros
 * (afterZeros). A candidate must lie wholly in one file. Proof found: CorruptFileException at
 * p. No proof: p is the end (a torn, zeroed, stale or never-written tail).
 *
 * Salvage (LogRecovery.SALVAGE): where a strict scan throws CorruptLogException, a salvaging
 * one ends the log there instead and keeps the exception as damage(); every record before it
 * has been delivered. survey() then walks the rest of the log's ring from the damage, probing
 * every 8-aligned LSN for a valid record (Lsn, type, length, epoch not below the last one seen
 * nor the meta's start, checksum) and following each run of them: what it finds is what the
 * salvage drops, counted for the report.
 *
 * Cost: a scan reads the log from the checkpoint, then the rest of the last file (at most
 * fileBytes), plus any later-sequence or damaged slot. A reused file's rest is the earlier
 * pass's records, not zeros, so the probe compares every word of it: each chunk is copied into a
 * long[] first, because the probe runs in a JVM that has just started, whose interpreter and
 * first compiled code read an array element at a fraction of the cost of a segment's. A caller
 * that knows where the log ended (a clean shutdown's checkpoint at the log's end) passes it as
 * cleanEndLsn: a scan that ends exactly there needs no proof, since nothing after it was ever
 * needed, and reads nothing more.
 *
 * Lifecycle: one scanner per scan; its confined arena is closed at the end, so a payload
 * view handed to the visitor is valid only during the call.
 * }</pre>
 */
final class LogScanner implements AutoCloseable {

  private static final int WINDOW_BYTES = 1 << 20;
  private static final int PROBE_CHUNK_BYTES = 1 << 20;
  private static final ValueLayout.OfInt INT =
      ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfLong LONG =
      ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private final LogFiles files;
  private final boolean salvage;
  private CorruptLogException damage;
  private MemorySegment spill; // survey: a record that runs past the chunk
  private final Arena arena = Arena.ofConfined();
  private long[] words; // a probe's chunk, as LSN_OFFSET's alignment reads it (8-byte words)
  private long probedBytes; // read by the proof's probes (ScanResult.endSearchBytes)
  private long endSearchNanos;
  private MemorySegment zeros; // PROBE_CHUNK_BYTES of zeros, made at the first probe that needs it
  private final CRC32C crc = new CRC32C();
  private MemorySegment window;
  private long windowStart = -1;
  private long windowLength;

  // the record just parsed by readRecord
  private int length;
  private int type;
  private long epoch;
  private long frame;

  LogScanner(LogFiles files) {
    this(files, LogRecovery.STRICT);
  }

  LogScanner(LogFiles files, LogRecovery recovery) {
    this.files = files;
    this.salvage = recovery == LogRecovery.SALVAGE;
    this.window = arena.allocate(WINDOW_BYTES, ALIGNMENT);
  }

  /** A valid record found beyond the end that proves the end was once durable. */
  record Proof(long lsn, int slot, long offset, long durableLsn) {}

  ScanResult scan(long fromLsn, long knownDurableLsn, RecordVisitor visitor) throws IOException {
    return scan(fromLsn, knownDurableLsn, -1, visitor);
  }

  /**
   * Scans from {@code fromLsn}; {@code cleanEndLsn} is where a clean shutdown ended the log, or -1
   * if unknown (see the class note).
   */
  ScanResult scan(long fromLsn, long knownDurableLsn, long cleanEndLsn, RecordVisitor visitor)
      throws IOException {
    if (fromLsn < 0 || fromLsn % ALIGNMENT != 0) {
      throw new IllegalArgumentException(
          "fromLsn must be a non-negative multiple of 8: fromLsn=" + fromLsn);
    }
    long firstSequence = files.sequenceOf(fromLsn);
    // at a file boundary the next file may rightly not be started yet; a damaged header is no
    // such file
    if (!files.holds(firstSequence)
        && (fromLsn % files.dataBytes != 0
            || files.header(files.slotOf(firstSequence)).damaged())) {
      int slot = files.slotOf(firstSequence);
      return damaged(
          new CorruptLogException(
              files.path(slot),
              0,
              fromLsn,
              "the log continues at lsn "
                  + fromLsn
                  + " (byte "
                  + files.fileOffset(fromLsn)
                  + " of this file), but the file holds "
                  + files.header(slot).describe()
                  + " instead of sequence "
                  + firstSequence),
          fromLsn,
          0,
          0);
    }
    long p = fromLsn;
    long previousEpoch = 0;
    long records = 0;
    for (; ; ) {
      String problem = readRecord(p, previousEpoch);
      if (problem != null) {
        if (p == cleanEndLsn) { // where a clean shutdown ended it: no later record matters
          return new ScanResult(fromLsn, p, records, previousEpoch, problem, 0, 0);
        }
        return end(fromLsn, p, records, previousEpoch, problem, knownDurableLsn);
      }
      if (type != LogLayout.TYPE_SKIP) {
        MemorySegment payload =
            window.asSlice(p - windowStart + PAYLOAD_OFFSET, length).asReadOnly();
        visitor.accept(p, p + frame, type, payload);
        records++;
      }
      previousEpoch = epoch;
      p += frame;
    }
  }

  private ScanResult end(
      long fromLsn, long p, long records, long lastEpoch, String problem, long knownDurableLsn)
      throws IOException {
    long searchStarted = System.nanoTime();
    Proof proof = findProofOfDurability(p);
    endSearchNanos = System.nanoTime() - searchStarted;
    if (proof != null) {
      return damaged(
          new CorruptLogException(
              files.pathOfLsn(p),
              files.fileOffset(p),
              p,
              "the record at lsn "
                  + p
                  + " is invalid ("
                  + problem
                  + "), but the valid record at lsn "
                  + proof.lsn()
                  + " ("
                  + files.path(proof.slot()).getFileName()
                  + " offset "
                  + proof.offset()
                  + ") was appended when the log was durable through lsn "
                  + proof.durableLsn()
                  + ", so lsn "
                  + p
                  + " had been written durably"),
          fromLsn,
          records,
          lastEpoch);
    }
    if (p < knownDurableLsn) {
      return damaged(
          new CorruptLogException(
              files.pathOfLsn(p),
              files.fileOffset(p),
              p,
              "the log ends at lsn "
                  + p
                  + " ("
                  + problem
                  + "), but it was known to be durable"
                  + " through lsn "
                  + knownDurableLsn),
          fromLsn,
          records,
          lastEpoch);
    }
    return new ScanResult(fromLsn, p, records, lastEpoch, problem, probedBytes, endSearchNanos);
  }

  /** Strict: throws {@code damage}. Salvage: ends the log at its LSN and keeps it. */
  private ScanResult damaged(
      CorruptLogException found, long fromLsn, long records, long lastEpoch) {
    if (!salvage) {
      throw found;
    }
    damage = found;
    return new ScanResult(
        fromLsn,
        found.lsn(),
        records,
        lastEpoch,
        "salvaged: " + found.problem(),
        probedBytes,
        endSearchNanos);
  }

  /** The damage a salvaging scan ended the log at, or null if there was none. */
  CorruptLogException damage() {
    return damage;
  }

  /**
   * What lies in the log from {@code p}, where the log was found damaged, up to {@code limitLsn}
   * (the end of the ring from the scan's start): the valid records of {@code epochFloor} or later
   * (the epoch of the last record before {@code p}), found by probing every 8-aligned LSN.
   */
  Survey survey(long p, long limitLsn, long epochFloor) throws IOException {
    MemorySegment chunk = arena.allocate(PROBE_CHUNK_BYTES, ALIGNMENT);
    long chunkStart = 0;
    long chunkEnd = 0;
    long floor = epochFloor;
    long found = 0;
    long foundBytes = 0;
    long last = -1;
    long end = p;
    long x = p;
    while (x + RECORD_HEADER_BYTES <= limitLsn) {
      long sequence = files.sequenceOf(x);
      LogFiles.Header header = files.header(files.slotOf(sequence));
      if (header.valid()
          && (header.sequence() == SEQUENCE_UNUSED || header.sequence() < sequence)) {
        x = (sequence + 1) * files.dataBytes; // an older pass or unused: nothing of sequence
        continue;
      }
      if (x < chunkStart || x + RECORD_HEADER_BYTES > chunkEnd) {
        chunkStart = x;
        chunkEnd = Math.min(limitLsn, x + chunk.byteSize());
        files.read(chunkStart, chunk.asSlice(0, chunkEnd - chunkStart));
      }
      long at = x - chunkStart;
      long frameBytes =
          chunk.get(LONG, at + LSN_OFFSET) == x
              ? surveyed(x, chunk, at, chunkEnd - x, limitLsn, floor)
              : -1;
      if (frameBytes < 0) {
        x += ALIGNMENT;
        continue;
      }
      floor = Integer.toUnsignedLong(chunk.get(INT, at + EPOCH_OFFSET));
      found++;
      foundBytes += frameBytes;
      last = x;
      end = x + frameBytes;
      x = end;
    }
    return new Survey(found, foundBytes, last, end);
  }

  /** The valid records {@link #survey} found after the damage. */
  record Survey(long records, long recordBytes, long lastLsn, long endLsn) {}

  /** The frame size of the valid record at {@code x} (header at {@code at}), or -1. */
  private long surveyed(
      long x, MemorySegment chunk, long at, long available, long limitLsn, long floor)
      throws IOException {
    int candidateLength = chunk.get(INT, at + LENGTH_OFFSET);
    int candidateType = Byte.toUnsignedInt(chunk.get(ValueLayout.JAVA_BYTE, at + TYPE_OFFSET));
    long candidateEpoch = Integer.toUnsignedLong(chunk.get(INT, at + EPOCH_OFFSET));
    if ((candidateType < FIRST_USER_TYPE && candidateType != LogLayout.TYPE_SKIP)
        || candidateLength < 0
        || candidateLength > MAX_PAYLOAD_BYTES
        || x + RECORD_HEADER_BYTES + candidateLength > limitLsn
        || candidateEpoch < floor
        || candidateEpoch < files.meta.minEpochAt(x)
        || candidateEpoch > files.metaEpoch) {
      return -1;
    }
    long recordBytes = RECORD_HEADER_BYTES + (long) candidateLength;
    MemorySegment record = chunk;
    long recordAt = at;
    if (recordBytes > available) {
      if (spill == null || spill.byteSize() < recordBytes) {
        spill = arena.allocate(Math.max(recordBytes, WINDOW_BYTES), ALIGNMENT);
      }
      record = spill.asSlice(0, recordBytes);
      files.read(x, record);
      recordAt = 0;
    }
    if (record.get(INT, recordAt + CRC_OFFSET) != recordCrc(record, recordAt, candidateLength)) {
      return -1;
    }
    return LogLayout.frameBytes(candidateLength);
  }

  /** Parses and checks the record at {@code p}; returns null if valid, else the problem. */
  private String readRecord(long p, long previousEpoch) throws IOException {
    long sequence = files.sequenceOf(p);
    int slot = files.slotOf(sequence);
    if (!files.holds(sequence)) {
      return "the file for sequence "
          + sequence
          + " ("
          + files.path(slot).getFileName()
          + ") holds "
          + files.header(slot).describe();
    }
    long heldEnd = files.heldEnd(p);
    if (heldEnd - p < RECORD_HEADER_BYTES) {
      return "a record header at lsn " + p + " would run into " + notHeld(heldEnd);
    }
    ensure(p, RECORD_HEADER_BYTES, heldEnd);
    long at = p - windowStart;
    length = window.get(INT, at + LENGTH_OFFSET);
    long lsn = window.get(LONG, at + LSN_OFFSET);
    type = Byte.toUnsignedInt(window.get(ValueLayout.JAVA_BYTE, at + TYPE_OFFSET));
    epoch = Integer.toUnsignedLong(window.get(INT, at + EPOCH_OFFSET));
    if (lsn != p) {
      return lsn == 0 && length == 0 && type == 0
          ? "zeroed space"
          : "lsn field is " + lsn + " (a stale or torn record, or garbage)";
    }
    if (type < FIRST_USER_TYPE && type != LogLayout.TYPE_SKIP) {
      return "type " + type + " is not a record type";
    }
    if (length < 0 || length > MAX_PAYLOAD_BYTES) {
      return "payload length " + Integer.toUnsignedString(length) + " out of range";
    }
    long fileEpoch = Integer.toUnsignedLong(files.header(slot).epoch());
    if (epoch < fileEpoch) {
      return "stale record of epoch " + epoch + " in a file initialized in epoch " + fileEpoch;
    }
    if (epoch < previousEpoch) {
      return "stale record of epoch " + epoch + " after a record of epoch " + previousEpoch;
    }
    long minEpoch = files.meta.minEpochAt(p);
    if (epoch < minEpoch) {
      return "stale record of epoch "
          + epoch
          + ": epoch "
          + minEpoch
          + " began at lsn "
          + files.meta.startOfMinEpochAt(p);
    }
    if (epoch > files.metaEpoch) {
      return "record epoch " + epoch + " is newer than the log's epoch " + files.metaEpoch;
    }
    if (p + RECORD_HEADER_BYTES + length > heldEnd) {
      return "a record of " + length + " bytes would run into " + notHeld(heldEnd);
    }
    frame = LogLayout.frameBytes(length);
    ensure(p, RECORD_HEADER_BYTES + length, heldEnd);
    at = p - windowStart;
    int stored = window.get(INT, at + CRC_OFFSET);
    int computed = recordCrc(window, at, length);
    if (stored != computed) {
      return String.format(
          java.util.Locale.ROOT,
          "checksum mismatch (stored 0x%08x, computed 0x%08x)",
          stored,
          computed);
    }
    return null;
  }

  /** Describes the file that should hold {@code lsn} but does not. */
  private String notHeld(long lsn) {
    long sequence = files.sequenceOf(lsn);
    int slot = files.slotOf(sequence);
    return files.path(slot).getFileName()
        + ", which holds "
        + files.header(slot).describe()
        + " instead of sequence "
        + sequence;
  }

  private int recordCrc(MemorySegment bytes, long at, int payloadLength) {
    crc.reset();
    crc.update(bytes.asSlice(at + LENGTH_OFFSET, CRC_OFFSET - LENGTH_OFFSET).asByteBuffer());
    crc.update(
        bytes
            .asSlice(at + LSN_OFFSET, RECORD_HEADER_BYTES - LSN_OFFSET + payloadLength)
            .asByteBuffer());
    return (int) crc.getValue();
  }

  /** Makes the window hold {@code [p, p + bytes)}; {@code p + bytes <= heldEnd}. */
  private void ensure(long p, long bytes, long heldEnd) throws IOException {
    if (p >= windowStart && p + bytes <= windowStart + windowLength) {
      return;
    }
    if (bytes > window.byteSize()) {
      window = arena.allocate(Math.max(bytes, window.byteSize() * 2), ALIGNMENT);
    }
    long load = Math.min(window.byteSize(), heldEnd - p);
    files.read(p, window.asSlice(0, load));
    windowStart = p;
    windowLength = load;
  }

  // ------------------------------------------------------------------- proof of durability

  /** Looks for a valid record that proves {@code p} was durable; null if there is none. */
  Proof findProofOfDurability(long p) throws IOException {
    long sequence = files.sequenceOf(p);
    int slotOfP = files.slotOf(sequence);
    MemorySegment chunk = arena.allocate(PROBE_CHUNK_BYTES, ALIGNMENT);
    words = new long[PROBE_CHUNK_BYTES / Long.BYTES];
    for (int slot = 0; slot < files.fileCount; slot++) {
      LogFiles.Header header = files.header(slot);
      long from;
      long baseLsn; // lsn at file offset FILE_HEADER_BYTES, or -1 if records must describe it
      if (slot == slotOfP) {
        from = files.fileOffset(p) + ALIGNMENT;
        baseLsn = header.holds(sequence) ? sequence * files.dataBytes : -1;
      } else if (header.valid()
          && (header.sequence() == SEQUENCE_UNUSED || header.sequence() < sequence)) {
        continue; // an older pass or a never-used slot: every record in it is before p
      } else {
        from = FILE_HEADER_BYTES;
        baseLsn = header.valid() ? header.sequence() * files.dataBytes : -1;
      }
      Proof proof = probe(slot, from, baseLsn, p, chunk);
      if (proof != null) {
        return proof;
      }
    }
    return null;
  }

  private Proof probe(int slot, long from, long baseLsn, long p, MemorySegment chunk)
      throws IOException {
    FileHandle handle = files.handle(slot);
    long fileBytes = files.fileBytes;
    long q = from;
    while (q + RECORD_HEADER_BYTES <= fileBytes) {
      long chunkStart = q;
      long n =
          handle.read(
              chunk.asSlice(0, Math.min(chunk.byteSize(), fileBytes - chunkStart)), chunkStart);
      long chunkEnd = chunkStart + n;
      probedBytes += n;
      if (chunkEnd - q < RECORD_HEADER_BYTES) {
        return null; // the file ended early; LogFiles.open checked sizes, so this is a race
      }
      // the chunk's words on the heap (see the implementation note, Cost)
      MemorySegment.copy(chunk, LONG, 0, words, 0, (int) (n / Long.BYTES));
      for (; q + RECORD_HEADER_BYTES <= chunkEnd; q += ALIGNMENT) {
        long at = q - chunkStart;
        long lsn = words[(int) ((at + LSN_OFFSET) >>> 3)];
        if (lsn == 0) {
          // never a proof (a proof's lsn is above p >= 0): jump over the zeros, as a log file's
          // unwritten space is, to the first offset whose lsn field holds a byte that is not
          q = afterZeros(chunk, chunkStart, q, chunkEnd) - ALIGNMENT; // the loop adds it back
          continue;
        }
        if (baseLsn >= 0) {
          if (lsn != baseLsn + q - FILE_HEADER_BYTES) {
            continue;
          }
        } else if (lsn <= p
            || lsn % ALIGNMENT != 0
            || files.slotOfLsn(lsn) != slot
            || files.fileOffset(lsn) != q) {
          continue;
        }
        if (lsn <= p) {
          continue;
        }
        Proof proof = check(slot, q, lsn, p, chunk, at, chunkEnd - q);
        if (proof != null) {
          return proof;
        }
      }
    }
    return null;
  }

  /**
   * The first offset after {@code q} (whose lsn field, in {@code chunk} read from {@code
   * chunkStart}, is zero) whose lsn field may hold a byte that is not zero: every offset before it
   * has an lsn field of zeros. If the chunk holds only zeros from there, the first offset whose
   * record header this chunk does not hold whole, where the next chunk starts.
   */
  private long afterZeros(MemorySegment chunk, long chunkStart, long q, long chunkEnd) {
    if (zeros == null) {
      zeros = arena.allocate(PROBE_CHUNK_BYTES, ALIGNMENT); // an arena zeroes what it allocates
    }
    long from = q - chunkStart + LSN_OFFSET;
    long to = chunkEnd - chunkStart;
    long mismatch = MemorySegment.mismatch(chunk, from, to, zeros, 0, to - from);
    long next =
        mismatch < 0
            ? chunkEnd - RECORD_HEADER_BYTES + 1 // no header held whole here has a non-zero lsn
            : chunkStart + from + mismatch - (LSN_OFFSET + LSN_LENGTH - 1); // fields ending there
    return Math.max(q + ALIGNMENT, (next + ALIGNMENT - 1) & -ALIGNMENT);
  }

  private Proof check(
      int slot, long q, long lsn, long p, MemorySegment chunk, long at, long available)
      throws IOException {
    int candidateLength = chunk.get(INT, at + LENGTH_OFFSET);
    int candidateType = Byte.toUnsignedInt(chunk.get(ValueLayout.JAVA_BYTE, at + TYPE_OFFSET));
    if ((candidateType < FIRST_USER_TYPE && candidateType != LogLayout.TYPE_SKIP)
        || candidateLength < 0
        || candidateLength > MAX_PAYLOAD_BYTES
        || q + RECORD_HEADER_BYTES + candidateLength > files.fileBytes) {
      return null;
    }
    long durableLag = Integer.toUnsignedLong(chunk.get(INT, at + DURABLE_LAG_OFFSET));
    long durableLsn = lsn - durableLag;
    if (durableLsn <= p) {
      return null; // valid or not, it proves nothing about p
    }
    MemorySegment record;
    long recordAt;
    long recordBytes = RECORD_HEADER_BYTES + (long) candidateLength;
    if (recordBytes <= available) {
      record = chunk;
      recordAt = at;
    } else {
      record = arena.allocate(recordBytes, ALIGNMENT);
      if (files.handle(slot).read(record, q) != recordBytes) {
        return null;
      }
      recordAt = 0;
    }
    if (record.get(INT, recordAt + CRC_OFFSET) != recordCrc(record, recordAt, candidateLength)) {
      return null;
    }
    return new Proof(lsn, slot, q, durableLsn);
  }

  @Override
  public void close() {
    arena.close();
  }
}
