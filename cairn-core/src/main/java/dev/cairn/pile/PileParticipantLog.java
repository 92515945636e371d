package dev.cairn.pile;

import dev.cairn.pile.participant.Attachment;
import dev.cairn.pile.participant.ParticipantLog;
import java.util.Objects;

/** One participant's {@link ParticipantLog} in one pile: its id bound to the pile's writes. */
final class PileParticipantLog implements ParticipantLog {
  private final OffHeapPile pile;
  private final int id;

  PileParticipantLog(OffHeapPile pile, int id) {
    this.pile = pile;
    this.id = id;
  }

  @Override
  public long append(int type, Attachment attachment) {
    Objects.requireNonNull(attachment, "attachment");
    return pile.appendParticipant(id, type, attachment);
  }

  @Override
  public void awaitDurable(long lsn) {
    pile.awaitDurable(lsn);
  }

  @Override
  public long put(Object value, int type, Attachment attachment) {
    return pile.putWith(value, id, type, attachment);
  }

  @Override
  public void delete(long pointer, int type, Attachment attachment) {
    pile.deleteWith(pointer, id, type, attachment);
  }

  @Override
  public void attach(dev.cairn.pile.Transaction transaction, int type, Attachment attachment) {
    Objects.requireNonNull(attachment, "attachment");
    if (!(transaction instanceof PileTransaction tx) || !tx.belongsTo(pile.transactions())) {
      throw new IllegalArgumentException("the transaction is not one of this pile's: "
          + transaction);
    }
    if (type < 0 || type > 255) {
      throw new IllegalArgumentException("a participant's record type must be in [0, 255]: type="
          + type);
    }
    tx.attach(id, type, attachment);
  }
}
