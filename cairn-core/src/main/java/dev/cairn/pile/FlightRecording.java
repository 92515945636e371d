package dev.cairn.pile;

import jdk.jfr.FlightRecorder;

/**
 * Whether Cairn's JFR events are worth making: only once JDK Flight Recorder runs in this JVM.
 *
 * <p>JFR's first event in a JVM initializes the recorder's metadata whether or not a recording
 * runs: about a quarter of a second on the reference machine, which a pile's open would pay before
 * its first get (a restart measured 130-180 ms before Cairn had events and 220-320 ms after).
 * {@link FlightRecorder#isInitialized()} answers without that cost, and is true from the start of a
 * recording ({@code -XX:StartFlightRecording}, {@code jcmd JFR.start}, or a {@code Recording}
 * started in code) on, so every event a recording could record is still made. The event classes are
 * only loaded once this says yes.
 */
final class FlightRecording {
  private FlightRecording() {}

  /** Whether JFR has been started in this JVM. */
  static boolean running() {
    return FlightRecorder.isInitialized();
  }
}
