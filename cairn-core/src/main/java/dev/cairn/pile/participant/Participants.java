package dev.cairn.pile.participant;

import dev.cairn.durability.file.FileLayer;
import dev.cairn.durability.file.RealFileLayer;
import dev.cairn.pile.Pile;
import dev.cairn.pile.PileOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The way in for participants: open a pile with them registered, then reach the log through the
 * opened pile.
 *
 * <pre>{@code
 * CounterTable counters = new CounterTable();          // a LogParticipant
 * try (Pile pile = Participants.open(dir, options, counters)) {
 *   ParticipantLog log = Participants.log(pile, counters);
 *   long pointer = log.put(order, CounterTable.SET, at -> counters.increment("orders"));
 * }
 * }</pre>
 */
public final class Participants {

  private static volatile PileAccess access;

  private Participants() {}

  /**
   * A volatile pile with {@code participants} registered: nothing is logged, attachments are
   * applied. Each participant's {@link LogParticipant#open} is called with an empty state.
   *
   * @throws IllegalArgumentException if an id is out of range or used twice
   */
  public static Pile offHeap(PileOptions options, LogParticipant... participants) {
    Objects.requireNonNull(options, "options");
    return access().offHeap(options, List.of(participants));
  }

  /**
   * Opens or creates the persistent pile in {@code directory} with {@code participants} registered,
   * as {@link Pile#open} does; each participant is opened and replayed before this returns (see
   * {@link LogParticipant}).
   *
   * @throws IllegalArgumentException if an id is out of range or used twice
   * @throws dev.cairn.pile.ParticipantRequiredException if the pile holds records or state of a
   *     participant not registered
   * @throws IOException as {@link Pile#open} does
   */
  public static Pile open(Path directory, PileOptions options, LogParticipant... participants)
      throws IOException {
    return open(RealFileLayer.INSTANCE, directory, options, participants);
  }

  /**
   * {@link #open(Path, PileOptions, LogParticipant...)} through {@code layer}: a test's simulated
   * disk, which can cut the power under the pile and its participants.
   */
  public static Pile open(
      FileLayer layer, Path directory, PileOptions options, LogParticipant... participants)
      throws IOException {
    Objects.requireNonNull(layer, "layer");
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(options, "options");
    return access().open(layer, directory, options, List.of(participants));
  }

  /**
   * Opens the persistent pile in {@code directory} read-only, as {@code cairn inspect} and {@code
   * cairn verify} do, with {@code participants} registered: each is opened and replayed as at a
   * read-write open, so that it can describe and check its state; the pile takes no writes (they
   * raise {@link dev.cairn.pile.ReadOnlyPileException}) and changes no file.
   *
   * @throws IllegalArgumentException if an id is out of range or used twice
   * @throws IOException as {@link Pile#open} does
   */
  public static Pile openReadOnly(
      FileLayer layer, Path directory, PileOptions options, LogParticipant... participants)
      throws IOException {
    Objects.requireNonNull(layer, "layer");
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(options, "options");
    return access().openReadOnly(layer, directory, options, List.of(participants));
  }

  /**
   * The log handle of {@code participant} in {@code pile}, which was opened with it registered: the
   * same object {@link LogParticipant#open} received.
   *
   * @throws IllegalArgumentException if the pile was not opened with this participant
   */
  public static ParticipantLog log(Pile pile, LogParticipant participant) {
    Objects.requireNonNull(pile, "pile");
    Objects.requireNonNull(participant, "participant");
    return access().log(pile, participant);
  }

  /**
   * The pile's implementation, made once by name: a reference from this package to the pile's
   * classes (or back) would make the two packages one cycle of classes.
   */
  private static PileAccess access() {
    PileAccess made = access;
    if (made == null) {
      synchronized (Participants.class) {
        made = access;
        if (made == null) {
          try {
            var constructor =
                Class.forName("dev.cairn.pile.ParticipantAccess").getDeclaredConstructor();
            constructor.setAccessible(true); // package-private, in this same module
            made = (PileAccess) constructor.newInstance();
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cairn-core is incomplete: " + e, e);
          }
          access = made;
        }
      }
    }
    return made;
  }
}
