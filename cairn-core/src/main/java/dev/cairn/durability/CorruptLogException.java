package dev.cairn.durability;

import java.nio.file.Path;

/**
 * A write-ahead log is damaged where it had been durable: the record at {@link #lsn()} is invalid,
 * yet a later valid record proves it was once written durably (or the file the log continues in
 * holds something else). That is never a torn tail, so recovery refuses the log by default rather
 * than silently lose what follows.
 *
 * <p>What to do: check the storage, then either restore from a backup or salvage the log (for a
 * pile, {@code PileDirectory.salvage} or {@code cairn recover}; the message says how): recovery
 * then stops at the last good record before {@link #lsn()}, drops that record and everything after
 * it (even valid records, which may depend on what was lost), keeps a copy of the damaged log
 * files, and reports what was dropped ({@link LogDamage}). An owner of a log (a pile) replaces the
 * advice with its own way to salvage ({@link #withAdvice(String)}).
 */
public final class CorruptLogException extends CorruptFileException {
  private final long lsn;
  private final String what;

  /** Damage at {@code lsn}, found at {@code offset} of {@code file}; {@code what} is wrong. */
  public CorruptLogException(Path file, long offset, long lsn, String what) {
    this(
        file,
        offset,
        lsn,
        what,
        "check the storage; restore from a backup, or salvage the log"
            + " with LogRecovery.SALVAGE, which keeps the records before lsn "
            + lsn
            + " and drops that record and everything after it",
        null);
  }

  private CorruptLogException(
      Path file, long offset, long lsn, String what, String advice, Throwable cause) {
    super(file, offset, what, advice, cause);
    this.lsn = lsn;
    this.what = what;
  }

  /** The LSN of the first damaged record: where a salvage ends the log. */
  public long lsn() {
    return lsn;
  }

  /** What is wrong at {@link #lsn()}, without the advice. */
  public String problem() {
    return what;
  }

  /**
   * The same damage with {@code advice} (what to do) in the message in place of the generic one,
   * and this exception as the cause.
   */
  public CorruptLogException withAdvice(String advice) {
    return new CorruptLogException(file(), offset(), lsn, what, advice, this);
  }
}
