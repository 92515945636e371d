package dev.cairn.bench.harness;

/**
 * A store cannot run on this machine (RocksDB's native library does not load, say). The bench
 * reports the reason and goes on with the other stores.
 */
final class StoreUnavailableException extends Exception {
  StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
