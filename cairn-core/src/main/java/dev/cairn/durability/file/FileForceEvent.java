package dev.cairn.durability.file;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * JFR event: a force ({@code fdatasync}) of one of a persistent pile's files that took longer than
 * its threshold (20 ms unless a recording sets another): the log's forces are what a durable commit
 * waits for, a checkpoint's what it waits for. Recorded by the real file layer.
 */
@Name("dev.cairn.FileForce")
@Label("Cairn File Force")
@Category({"Cairn", "Durability"})
@Description("A force (fdatasync) of a Cairn file slower than the threshold")
@Threshold("20 ms")
@StackTrace(false)
final class FileForceEvent extends Event {
  @Label("File")
  String file;
}
