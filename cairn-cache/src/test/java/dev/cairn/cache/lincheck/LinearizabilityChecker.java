package dev.cairn.cache.lincheck;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides whether the history of one key is linearizable against a {@link RegisterModel}: whether
 * its operations can be put in one order that respects real time (an operation that returned before
 * another was invoked comes first) and in which each returns what the model says.
 *
 * <p>The search is Wing and Gong's, with Lowe's just-in-time linearization and memoization (as in
 * Porcupine): the history is a list of call and return events in time order; the search linearizes,
 * at each step, an operation whose call comes before the first return still in the list, and
 * backtracks when it meets the return of an operation it has not linearized. Each (set of
 * linearized operations, model state) is tried once. The model's nondeterminism (eviction) is
 * handled by carrying the set of states it may be in (a subset construction), so a state is a small
 * sorted set of values.
 *
 * <p>Events at the same nanosecond count as concurrent (calls sort before returns), so a history is
 * never rejected for an order the clock could not tell.
 */
public final class LinearizabilityChecker {

  /** A call or a return event, linked in time order. */
  private static final class Event {
    final int op;
    final boolean call;
    final long time;
    Event match; // the call's return, the return's call
    Event prev;
    Event next;

    Event(int op, boolean call, long time) {
      this.op = op;
      this.call = call;
      this.time = time;
    }
  }

  private record Seen(BitSet linearized, long[] states) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Seen s
          && linearized.equals(s.linearized)
          && Arrays.equals(states, s.states);
    }

    @Override
    public int hashCode() {
      return linearized.hashCode() * 31 + Arrays.hashCode(states);
    }
  }

  private record Frame(Event call, long[] states) {}

  /** What a check found: linearizable or not, and the most operations it could linearize. */
  public record Result(boolean linearizable, int longestPrefix, int statesTried) {}

  private final RegisterModel model;

  public LinearizabilityChecker(RegisterModel model) {
    this.model = model;
  }

  /** Checks {@code history}, the key starting with no value. */
  public Result check(List<Operation> history) {
    return check(history, new long[] {Operation.ABSENT});
  }

  /** Checks {@code history}, the key starting in any of {@code initialStates}. */
  public Result check(List<Operation> history, long[] initialStates) {
    int n = history.size();
    List<Event> events = new ArrayList<>(2 * n);
    for (int i = 0; i < n; i++) {
      Operation op = history.get(i);
      Event call = new Event(i, true, op.invokedNanos());
      Event ret = new Event(i, false, op.respondedNanos());
      call.match = ret;
      ret.match = call;
      events.add(call);
      events.add(ret);
    }
    // time order; at the same time calls first (concurrent), and a call before its own return
    events.sort(Comparator.comparingLong((Event e) -> e.time).thenComparing(e -> !e.call));
    Event head = new Event(-1, false, Long.MIN_VALUE);
    Event last = head;
    for (Event e : events) {
      last.next = e;
      e.prev = last;
      last = e;
    }

    long[] states = initialStates.clone();
    Arrays.sort(states);
    BitSet linearized = new BitSet(n);
    Set<Seen> seen = new HashSet<>();
    Deque<Frame> stack = new ArrayDeque<>();
    int longest = 0;
    Event entry = head.next;
    while (head.next != null) {
      if (entry.call) {
        long[] next = model.step(states, history.get(entry.op));
        if (next.length > 0) {
          BitSet with = (BitSet) linearized.clone();
          with.set(entry.op);
          if (seen.add(new Seen(with, next))) {
            stack.push(new Frame(entry, states));
            states = next;
            linearized.set(entry.op);
            longest = Math.max(longest, linearized.cardinality());
            lift(entry);
            entry = head.next;
            continue;
          }
        }
        entry = entry.next;
      } else { // the return of an operation not linearized yet: undo the last choice
        if (stack.isEmpty()) {
          return new Result(false, longest, seen.size());
        }
        Frame top = stack.pop();
        states = top.states();
        linearized.clear(top.call().op);
        unlift(top.call());
        entry = top.call().next;
      }
    }
    return new Result(true, n, seen.size());
  }

  /** Takes a call and its return out of the list. */
  private static void lift(Event call) {
    call.prev.next = call.next;
    if (call.next != null) {
      call.next.prev = call.prev;
    }
    Event ret = call.match;
    ret.prev.next = ret.next;
    if (ret.next != null) {
      ret.next.prev = ret.prev;
    }
  }

  /** Puts a call and its return back, where they were (the reverse of {@link #lift}). */
  private static void unlift(Event call) {
    Event ret = call.match;
    ret.prev.next = ret;
    if (ret.next != null) {
      ret.next.prev = ret;
    }
    call.prev.next = call;
    if (call.next != null) {
      call.next.prev = call;
    }
  }

  /** The history as lines, by invocation time, relative to its first invocation. */
  public static String describe(List<Operation> history) {
    List<Operation> sorted = new ArrayList<>(history);
    sorted.sort(Comparator.comparingLong(Operation::invokedNanos));
    long origin = sorted.isEmpty() ? 0 : sorted.getFirst().invokedNanos();
    StringBuilder sb = new StringBuilder();
    for (Operation op : sorted) {
      sb.append("\n    ").append(op.describe(origin));
    }
    return sb.toString();
  }
}
