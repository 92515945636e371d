package dev.cairn.pile;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event: one checkpoint of a persistent pile, from its start to its superblock's write, so that
 * JDK Mission Control shows checkpoints beside GC pauses.
 */
@Name("dev.cairn.Checkpoint")
@Label("Cairn Checkpoint")
@Category({"Cairn", "Durability"})
@Description("A checkpoint of a persistent Cairn pile")
@StackTrace(false)
final class CheckpointEvent extends Event {
  @Label("Directory")
  String directory;

  @Label("Checkpoint LSN")
  @Description("The log position recovery replays from after this checkpoint")
  long lsn;

  @Label("Clean Close")
  boolean clean;
}
