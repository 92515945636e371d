package dev.cairn.metrics;

/**
 * A pile's figures as JMX shows them ({@code dev.cairn:type=Pile,name=NAME}): {@link
 * dev.cairn.pile.PileStats} and {@link dev.cairn.pile.DurabilityStats}, read at each request.
 */
public interface PileMXBean {
  long getObjectCount();

  int getSegmentCount();

  long getCapacityBytes();

  long getAllocatedBytes();

  long getUtilizedBytes();

  long getFreeBytes();

  boolean isPersistent();

  long getLogEndLsn();

  long getDurableLsn();

  long getCheckpoints();

  long getLastCheckpointLsn();

  long getOpenMillis();

  long getReplayMillis();

  long getRecordsReplayed();

  /** See {@link dev.cairn.pile.DurabilityStats#endSearchBytes}. */
  long getEndSearchBytes();

  boolean isLastCloseClean();
}
