package dev.cairn.cache;

import dev.cairn.codec.CodecRegistry;
import dev.cairn.pile.Pile;
import dev.cairn.pile.ValueReader;
import dev.cairn.pile.participant.ParticipantLog;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cache's {@link EntryLog} over a pile's participant log.
 *
 * <p>INTERIM: regions live in native memory beside the pile, and an update logs its index
 * change in a record of its own; both move into the pile with its region API.
 */
final class PileEntryLog implements EntryLog {
  private final Pile pile;
  private final ParticipantLog log;
  private final CodecRegistry codecs;
  private final ConcurrentHashMap<Long, MemorySegment> regions = new ConcurrentHashMap<>();
  private final AtomicLong nextRegion = new AtomicLong(1L << 62);

  PileEntryLog(Pile pile, ParticipantLog log, CodecRegistry codecs) {
    this.pile = pile;
    this.log = log;
    this.codecs = codecs;
  }

  private static byte[] bytes(Payload payload) {
    byte[] bytes = new byte[payload.sizeBytes()];
    payload.writeTo(MemorySegment.ofArray(bytes), 0);
    return bytes;
  }

  @Override
  public long put(Payload payload, int type, Change change) {
    try {
      if (type == CacheCore.RECORD_REGION) {
        long id = nextRegion.incrementAndGet();
        regions.put(id, Arena.ofAuto().allocate(payload.sizeBytes(), 8));
        change.apply(id);
        return id;
      }
      return log.put(bytes(payload), type, change::apply);
    } finally {
      change.afterLog();
    }
  }

  @Override
  public void update(long pointer, Payload payload, int type, Change change) {
    try {
      pile.update(pointer, bytes(payload));
      log.append(type, ignored -> change.apply(pointer));
    } finally {
      change.afterLog();
    }
  }

  @Override
  public void delete(long pointer, int type, Change change) {
    try {
      if (type == CacheCore.RECORD_RETIRE) {
        if (regions.remove(pointer) != null) {
          change.apply(pointer);
        }
        return;
      }
      log.delete(pointer, type, change::apply);
    } finally {
      change.afterLog();
    }
  }

  @Override
  public long append(int type, Change change) {
    try {
      return log.append(type, change::apply);
    } finally {
      change.afterLog();
    }
  }

  @Override
  public <R> R read(long pointer, ValueReader<R> reader) {
    return pile.read(pointer, reader);
  }

  @Override
  public long allocatedBytes(int payloadBytes) {
    return 8 + ((payloadBytes + 7L) & ~7L);
  }

  @Override
  public CodecRegistry codecs() {
    return codecs;
  }

  @Override
  public MemorySegment view(long region) {
    MemorySegment view = regions.get(region);
    if (view == null) {
      throw new IllegalArgumentException("no index region " + region);
    }
    return view;
  }

  @Override
  public void written(long region, long offset, long length) {}
}
