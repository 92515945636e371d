/**
 * Cairn core: the off-heap {@link dev.cairn.pile.Pile} and its value codecs.
 *
 * <p>Exports only API packages: {@code dev.cairn} (the root exception), the pile, codecs, and
 * durability (the exceptions a persistent pile raises, and the write-ahead log and file layer,
 * usable on their own). {@code
 * dev.cairn.memory} stays internal: it owns raw segments and their lifetime, which no caller
 * should touch.
 */
module dev.cairn.core {
  exports dev.cairn;
  exports dev.cairn.pile;
  exports dev.cairn.codec;
  exports dev.cairn.durability;
}
