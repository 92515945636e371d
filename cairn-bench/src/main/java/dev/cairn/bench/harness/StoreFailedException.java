package dev.cairn.bench.harness;

import dev.cairn.CairnException;

/**
 * A store under measurement failed in a way the user can act on: it returned wrong values, or the
 * JVM ran out of memory for it. The message says which store, what happened and what to try.
 */
public final class StoreFailedException extends CairnException {
  StoreFailedException(String message) {
    super(message);
  }

  StoreFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
