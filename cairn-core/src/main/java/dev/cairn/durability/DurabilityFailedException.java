package dev.cairn.durability;

import dev.cairn.CairnException;

/**
 * A write or an fsync of a durable file failed, so what is on disk is no longer known. The object
 * that saw it is permanently failed: every later call throws this exception, carrying the original
 * {@link java.io.IOException} as its cause, and nothing more is ever acknowledged (invariant I11).
 * An fsync is never retried: after a failed fsync Linux drops the dirty pages and clears the error,
 * so a retry that "succeeds" proves nothing.
 *
 * <p>What to do: close, fix the storage (a full or failing disk), and reopen; recovery replays the
 * log from the last checkpoint, and every acknowledged record is there.
 */
public final class DurabilityFailedException extends CairnException {
  public DurabilityFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
