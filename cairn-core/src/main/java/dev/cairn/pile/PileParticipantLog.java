package dev.cairn.pile;

import dev.cairn.codec.CodecRegistry;
import dev.cairn.pile.participant.Attachment;
import dev.cairn.pile.participant.InPlaceReader;
import dev.cairn.pile.participant.ParticipantLog;
import dev.cairn.pile.participant.PayloadWriter;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * One participant's {@link ParticipantLog} in one pile: its id bound to the pile's writes, its
 * regions to the pile's {@link Regions}. Made once per participant and pile ({@link
 * ParticipantRegistry#bind}); writes wait for the open to end ({@link
 * ParticipantRegistry#requireWritable}).
 */
final class PileParticipantLog implements ParticipantLog {
  private final OffHeapPile pile;
  private final ParticipantRegistry registry;
  private final int id;

  PileParticipantLog(OffHeapPile pile, ParticipantRegistry registry, int id) {
    this.pile = pile;
    this.registry = registry;
    this.id = id;
  }

  @Override
  public long append(int type, Attachment attachment) {
    Objects.requireNonNull(attachment, "attachment");
    registry.requireWritable("append");
    return pile.participantWrites().append(id, type, attachment);
  }

  @Override
  public void awaitDurable(long lsn) {
    pile.awaitDurable(lsn);
  }

  @Override
  public long put(Object value, int type, Attachment attachment) {
    registry.requireWritable("put");
    return pile.participantWrites().put(value, id, type, attachment);
  }

  @Override
  public long put(PayloadWriter payload, int type, Attachment attachment) {
    registry.requireWritable("put");
    return pile.participantWrites().put(payload, id, type, attachment);
  }

  @Override
  public long putWithoutWaiting(PayloadWriter payload, int type, Attachment attachment) {
    registry.requireWritable("put");
    return pile.participantWrites().putWithoutWaiting(payload, id, type, attachment);
  }

  @Override
  public void update(long pointer, PayloadWriter payload, int type, Attachment attachment) {
    registry.requireWritable("update");
    pile.participantWrites().update(pointer, payload, id, type, attachment);
  }

  @Override
  public void delete(long pointer, int type, Attachment attachment) {
    registry.requireWritable("delete");
    pile.participantWrites().delete(pointer, id, type, attachment);
  }

  @Override
  public void attach(dev.cairn.pile.Transaction transaction, int type, Attachment attachment) {
    Objects.requireNonNull(attachment, "attachment");
    registry.requireWritable("attach");
    if (!(transaction instanceof PileTransaction tx) || !tx.belongsTo(pile.transactions())) {
      throw new IllegalArgumentException(
          "the transaction is not one of this pile's: " + transaction);
    }
    ParticipantRegistry.checkType(type);
    tx.attach(id, type, attachment);
  }

  @Override
  public <R> R read(long pointer, InPlaceReader<R> reader) {
    return pile.readInPlace(pointer, Objects.requireNonNull(reader, "reader"));
  }

  @Override
  public long prefetch(long pointer) {
    return pile.prefetch(pointer);
  }

  @Override
  public CodecRegistry codecs() {
    return pile.codecs();
  }

  @Override
  public long allocatedBytes(int payloadBytes) {
    return pile.allocatedBytes(payloadBytes);
  }

  @Override
  public MemorySegment region(long pointer) {
    return pile.regions().region(pointer, false);
  }

  @Override
  public void hinted(long pointer, long offset, long length) {
    pile.regions().hinted(pointer, offset, length);
  }

  @Override
  public MemorySegment hintedRegion(long pointer) {
    return pile.regions().region(pointer, true);
  }

  @Override
  public boolean recoveredFromCutCheckpoint() {
    return pile.regions().recoveredFromCutCheckpoint();
  }

  @Override
  public void written(long pointer, long offset, long length) {
    pile.regions().written(pointer, offset, length);
  }

  @Override
  public String toString() {
    return "ParticipantLog(" + id + ")";
  }
}
