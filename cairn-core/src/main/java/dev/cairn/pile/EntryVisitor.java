package dev.cairn.pile;

/** Receives one live entry during {@link Pile#forEach(EntryVisitor)}. */
@FunctionalInterface
public interface EntryVisitor {
  /**
   * Receives one entry.
   *
   * @param pointer the entry's pointer, as {@link Pile#put(Object)} returned it
   * @param kind how the value is stored
   * @param sizeBytes the stored payload length, as {@link Pile#sizeOf(long)} reports it
   */
  void visit(long pointer, ValueKind kind, int sizeBytes);
}
