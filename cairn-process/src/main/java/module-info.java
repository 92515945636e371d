/** The launcher of a class in a JVM of its own ({@link dev.cairn.process.ChildJvm}). */
module dev.cairn.process {
  exports dev.cairn.process;
}
