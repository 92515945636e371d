package dev.cairn.pile;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** JFR event: the open of a persistent pile, its recovery included. */
@Name("dev.cairn.Recovery")
@Label("Cairn Recovery")
@Category({"Cairn", "Durability"})
@Description("The open of a persistent Cairn pile: checkpoint loaded, log replayed")
@StackTrace(false)
final class RecoveryEvent extends Event {
  @Label("Directory")
  String directory;

  @Label("Last Close Clean")
  boolean lastCloseClean;

  @Label("Records Replayed")
  long recordsReplayed;

  @Label("Bytes Replayed")
  @DataAmount
  long bytesReplayed;

  @Label("End Search")
  @Description("Bytes of log read past its end for proof that the end had been durable")
  @DataAmount
  long endSearchBytes;
}
