package dev.cairn.cache;

import dev.cairn.codec.CodecRegistry;
import dev.cairn.pile.participant.InPlaceReader;
import dev.cairn.pile.participant.ParticipantLog;
import dev.cairn.pile.participant.PayloadWriter;
import java.lang.foreign.MemorySegment;

/**
 * The cache's {@link EntryLog} over its pile's participant log: entries are values whose bytes the
 * cache composes in place, the index's regions values it writes in place, and every index change
 * rides the record of the write it belongs to.
 */
final class PileEntryLog implements EntryLog {
  private final ParticipantLog log;
  // whether the pile has files: else the index's writes need not be told (a volatile pile only
  // checks the arguments of written and hinted, and every slot store told it: 4% of a load)
  private final boolean persistent;

  PileEntryLog(ParticipantLog log, boolean persistent) {
    this.log = log;
    this.persistent = persistent;
  }

  @Override
  public long put(PayloadWriter payload, int type, Change change) {
    try {
      return log.put(payload, type, change);
    } finally {
      change.afterLog();
    }
  }

  @Override
  public long putWithoutWaiting(PayloadWriter payload, int type, Change change) {
    try {
      return log.putWithoutWaiting(payload, type, change);
    } finally {
      change.afterLog();
    }
  }

  @Override
  public void update(long pointer, PayloadWriter payload, int type, Change change) {
    try {
      log.update(pointer, payload, type, change);
    } finally {
      change.afterLog();
    }
  }

  @Override
  public void delete(long pointer, int type, Change change) {
    try {
      log.delete(pointer, type, change);
    } finally {
      change.afterLog();
    }
  }

  @Override
  public long append(int type, Change change) {
    try {
      return log.append(type, change);
    } finally {
      change.afterLog();
    }
  }

  @Override
  public <R> R read(long pointer, InPlaceReader<R> reader) {
    return log.read(pointer, reader);
  }

  @Override
  public long prefetch(long pointer) {
    return log.prefetch(pointer);
  }

  @Override
  public long allocatedBytes(int payloadBytes) {
    return log.allocatedBytes(payloadBytes);
  }

  @Override
  public CodecRegistry codecs() {
    return log.codecs();
  }

  @Override
  public MemorySegment view(long region) {
    return log.hintedRegion(region); // slots take hints: policy bits, idle times
  }

  @Override
  public void written(long region, long offset, long length) {
    if (persistent) {
      log.written(region, offset, length);
    }
  }

  @Override
  public void hinted(long region, long offset, long length) {
    if (persistent) {
      log.hinted(region, offset, length);
    }
  }
}
