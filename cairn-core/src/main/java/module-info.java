/**
 * Cairn core: the off-heap {@link dev.cairn.pile.Pile} and its value codecs.
 *
 * <p>Exports only API packages: {@code dev.cairn} (the root exception), the pile, codecs, and
 * {@code dev.cairn.durability} (the exceptions a persistent pile raises about its files, and what a
 * salvage of its log reports). The rest stays internal: {@code dev.cairn.memory} owns raw segments
 * and their lifetime, which no caller should touch; {@code dev.cairn.durability.log} (the
 * write-ahead log) and {@code dev.cairn.durability.file} (the file layer, superblocks, the
 * directory lock) are how a persistent pile keeps its files, not a storage API of their own. The
 * command line reads them ({@code cairn bench} sizes its recovery runs by the log's layout; its
 * tests take the directory lock and read logs and superblocks), hence the qualified exports.
 * Compiled on its own, this module cannot see {@code dev.cairn.cli}, and {@code dev.cairn.cache}
 * does not exist yet: javac would flag both targets ("module not found"), hence the suppression.
 */
@SuppressWarnings("module")
module dev.cairn.core {
  // JFR events (checkpoints, recovery, slow forces): part of the JDK, no dependency
  requires jdk.jfr;

  exports dev.cairn;
  exports dev.cairn.pile;
  exports dev.cairn.codec;
  exports dev.cairn.durability;
  // participants share a pile's log: Cairn's own durable structures (the cache's index) only
  exports dev.cairn.pile.participant to
      dev.cairn.cache;
  // the file layer: the CLI's tools, and the cache's tests through a simulated disk
  exports dev.cairn.durability.file to
      dev.cairn.cli,
      dev.cairn.cache;
  exports dev.cairn.durability.log to
      dev.cairn.cli;
  // a coarse wall clock: the cache's write times
  exports dev.cairn.time to
      dev.cairn.cache;
  // padding for the cache's per-thread scratch state (ThreadStatePadding)
  exports dev.cairn.memory to
      dev.cairn.cache;
}
