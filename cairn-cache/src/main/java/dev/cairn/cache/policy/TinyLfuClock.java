package dev.cairn.cache.policy;

import static dev.cairn.cache.policy.PolicyBitsLayout.AGE_MAX;
import static dev.cairn.cache.policy.PolicyBitsLayout.LEAVING;
import static dev.cairn.cache.policy.PolicyBitsLayout.PROBATION;
import static dev.cairn.cache.policy.PolicyBitsLayout.PROTECTED;
import static dev.cairn.cache.policy.PolicyBitsLayout.REFERENCED;
import static dev.cairn.cache.policy.PolicyBitsLayout.WINDOW;
import static dev.cairn.cache.policy.PolicyBitsLayout.age;
import static dev.cairn.cache.policy.PolicyBitsLayout.bits;
import static dev.cairn.cache.policy.PolicyBitsLayout.referenced;
import static dev.cairn.cache.policy.PolicyBitsLayout.segment;
import static dev.cairn.cache.policy.PolicyBitsLayout.withAge;

/**
 * The cache's eviction policy: W-TinyLFU (Caffeine's) with its LRU lists replaced by what an
 * off-heap index makes cheap: a few bits in each slot, a CLOCK hand sweeping the slots in table
 * order, a shared {@link FrequencySketch}, and a small ring of the window's entries.
 *
 * <p>A new entry enters a small <em>window</em>. When the window is over its share, its eldest
 * entry moves to the main space's <em>probation</em> segment as a <em>candidate</em>. When the
 * budget is exceeded, the hand brings a <em>victim</em> from probation, and the sketch decides
 * which of the candidate and the victim the cache keeps: the candidate only if it was asked for
 * more often (TinyLFU admission). A probation entry hit again is promoted to the <em>protected</em>
 * segment, which holds at most 80% of the main space. A hill climber moves the window's share
 * between 0 and 25% of the budget, by the hit ratio it observes.
 *
 * <p>Entries are byte-weighted: a candidate may have to beat several victims, one at a time, until
 * the budget holds; if it loses any duel it leaves.
 *
 * <p>Call sequence (the index's side), under the cache's eviction lock except where noted:
 *
 * {@snippet :
 * long slot = index.lookup(key);
 * if (slot >= 0) {
 *   policy.onHit(slot);                  // any thread, no lock
 * } else {
 *   policy.onMiss(hash);                 // any thread, no lock
 *   slot = index.insert(key, pointer);   // bits LEAVING: not counted yet; then, under the lock:
 *   policy.onInsert(slot);
 *   for (long v = policy.nextVictim(); v >= 0; v = policy.nextVictim()) {
 *     policy.onRemove(v);                // a no-op on a victim: it is already uncounted
 *     index.remove(v);
 *   }
 *   if (policy.usedBytes() > policy.budgetBytes()) {
 *     throw new CacheException("budget held by pinned entries"); // nothing else to evict
 *   }
 * }
 * }
 *
 * <p>An index whose writers do not hold the eviction lock (the cache's) counts and uncounts entries
 * itself: it sets a new entry's bits from LEAVING to a segment and reports it with {@link
 * #onCounted}, reports a removed entry's segment and size with {@link #onRemoved}, and records a
 * hit with {@link #recordHit} and {@link #hitBits} where it cannot name the slot's number.
 *
 * <p>Thread-safety: {@link #onHit}, {@link #recordHit}, {@link #recordHits} and {@link #onMiss} may
 * run on any thread with no lock: they increment the sketch, set the slot's referenced bit by one
 * compare-and-set, and bump the climber's sample counters (a stripe per thread, plain writes: a
 * lost increment only blurs a sample). Every other method must be called under one lock, the
 * cache's eviction lock.
 */
/*
 * Implementation note
 *
 * Mapping from Caffeine's structures. Caffeine keeps three access-ordered lists. Here:
 *   - window LRU   -> the ring: a FIFO of the hashes of the entries inserted into the window,
 *                     with a second chance for an entry hit while in the window (CLOCK order of
 *                     insertion). The index's slot order is unrelated to insertion order, so a
 *                     hand cannot find "the eldest new entry" without scanning ~1/window of the
 *                     table per miss; the ring costs 8 bytes per window entry: 0.08 B per entry
 *                     of the cache at the 1% start, at most 2 B at the climber's 25% cap (plus
 *                     the slack of stale records, compacted once they outnumber live ones). It
 *                     pays off by up to 19 points of hit ratio on the recency-heavy traces
 *                     (docs/CACHE-POLICY.md).
 *   - probation    -> slots whose segment is PROBATION; the hand's next unreferenced one is the
 *                     victim (random order, as the slot order is a hash order), once it has
 *                     spent its grace (one pass of the hand, given while the sketch is wide:
 *                     GRACE_MIN_SKETCH_BYTES_PER_ENTRY), which stands in for the LRU turn.
 *   - protected    -> slots whose segment is PROTECTED; the referenced bit and the age give a
 *                     CLOCK approximation of LRU: a pass of the hand turns a reference into age
 *                     AGE_MAX and otherwise takes one off; at age 0 the entry is demoted to
 *                     probation if protected is over its share.
 *   - the "candidate" of Caffeine's evictFromMain -> a queue of up to CANDIDATES entries that
 *     left the window and wait for their duel; once the budget holds again they are plain
 *     probation entries (Caffeine does the same).
 *   - the victim kept across duels -> heldVictim: a victim that wins stays the victim for the
 *     next candidate, as Caffeine's probation head does.
 * A slot or hash kept by the policy (ring, candidates, held victim) may go stale when the index
 * moves or removes the entry; each is checked (hash and segment) before use, and dropped if stale.
 *
 * Concurrency. A hit changes only the REFERENCED bit, by compare-and-set against the bits it read;
 * if the hand or a removal changed the bits in between, the hit's write fails and is dropped. So
 * the segment of a counted slot is only ever changed under the eviction lock, which keeps the byte
 * totals exact (I1). A hot entry whose bit is already set costs its hits no write at all.
 * Every change of a slot's bits is a compareAndSetBits against the bits just read from that slot
 * (bits, then sizeBytes, then the compare-and-set, nothing else between), and the totals move only
 * when it succeeds: a view over an index that moves and removes entries concurrently refuses it
 * when the slot no longer holds the entry it read, and the policy leaves that slot alone (I6).
 *
 * Lifecycle of an entry's bits:
 *   stored by the index -> LEAVING: not counted yet
 *   onInsert           -> WINDOW, age 0 (onCounted: the segment the index chose)
 *   window over share  -> PROBATION (a candidate) with its grace as age (0 with a narrow
 *                         sketch), or back in the ring once if referenced
 *   hand, PROBATION    -> referenced: PROTECTED, age AGE_MAX; else age > 0: age - 1 (the
 *                         grace); else a victim
 *   hand, PROTECTED    -> referenced: age AGE_MAX; else age - 1; at 0 and protected over its
 *                         share: PROBATION
 *   chosen as victim   -> LEAVING (bytes already taken off the totals); onRemove of a LEAVING
 *                         slot changes nothing
 *
 * Invariants
 *   I1. usedBytes is the sum of sizeBytes over the occupied slots whose segment is not LEAVING,
 *       once every removal has been reported (onRemove, onRemoved); windowBytes and
 *       protectedBytes are the sums over the WINDOW and PROTECTED ones.
 *   I2. A pinned entry is never returned as a victim, never a candidate, and the hand changes
 *       none of its bits.
 *   I3. After onInsert, nextVictim returns victims until usedBytes <= budgetBytes, and returns -1
 *       while usedBytes > budgetBytes only when every counted entry is pinned. So the budget is
 *       exceeded only between an onInsert (or onUpdate) and the eviction that follows it, by at
 *       most that entry's size.
 *   I4. Each call does bounded work: a window drain pops each ring record at most twice; a
 *       victim search moves the hand at most (AGE_MAX + 3) times round the table (reached only
 *       when nearly everything is pinned).
 *   I5. No allocation in steady state: the ring grows by doubling, and only while the window
 *       holds more entries than ever before.
 *   I6. The totals change only with a successful compareAndSetBits of the slot they describe, or
 *       by onCounted and onRemoved, whose caller changed the bits itself. A refused
 *       compare-and-set leaves the slot's bits and the totals as they were: a refused promotion or
 *       demotion is retried on the hand's next turn, a refused window move puts the ring record
 *       back, a refused victim is skipped.
 */
public final class TinyLfuClock {
  static final long NONE = -1;

  /** The most window leavers that wait for a duel at once; more are admitted unjudged. */
  static final int CANDIDATES = 16;

  static final double PERCENT_MAIN = 0.99;
  static final double PERCENT_MAIN_PROTECTED = 0.80;
  static final double CLIMBER_RESTART_THRESHOLD = 0.05;
  static final double CLIMBER_STEP_PERCENT = 0.0625;
  static final double CLIMBER_STEP_DECAY_RATE = 0.98;
  static final int ADMIT_HASHDOS_THRESHOLD = 6;

  /**
   * The hill climber's cap on the window's share. Caffeine has none; here it bounds the ring at 8
   * bytes per window entry, so at most about 2 bytes per entry of the cache. It costs 2.4 points on
   * one point of the traces (cache2k-orm-night at 1%, where the climber goes to 80%) and gains 2.1
   * and 1.6 at two others (lirs-sprite at 70, cache2k-orm-night at 5%); over all 44 points, it
   * gains 0.02 points of the mean (VariantReport with this set to 1.0).
   */
  static final double MAX_WINDOW_PERCENT = 0.25;

  /**
   * The sketch's bytes per counted entry from which an entry that leaves the window gets its
   * probation grace. Why a grace: the hand's order is the slots' (a hash order), so a new probation
   * entry just ahead of the hand would be the very next victim, where Caffeine's probation LRU
   * gives it a whole turn; one pass of grace makes every new entry wait about a turn. Why only with
   * a wide sketch: the grace also keeps whatever admission let in, and a narrow sketch (1 byte per
   * entry, a large cache's) lets scans and loops in that the grace then protects. Figures:
   * docs/CACHE-POLICY.md (ProbationGraceReport).
   */
  static final int GRACE_MIN_SKETCH_BYTES_PER_ENTRY = 4;

  /**
   * Tuning, for the simulator's comparisons.
   *
   * @param percentMain the main space's initial share of the budget (1.0: no window)
   * @param adaptive whether the hill climber moves the window's share
   * @param seed the seed of the admission's randomness
   * @param probationGrace how many passes of the hand an entry that left the window survives in
   *     probation before it may be a victim, while the sketch is wide (see {@link
   *     #GRACE_MIN_SKETCH_BYTES_PER_ENTRY}), 0 to {@link PolicyBitsLayout#AGE_MAX} (kept in the age
   *     bits, which probation entries do not otherwise use); out of range, the constructor throws
   *     IllegalArgumentException
   */
  public record Options(double percentMain, boolean adaptive, long seed, int probationGrace) {
    /** Caffeine's starting point (a 1% window, adaptive), with a grace of one pass. */
    public static final Options DEFAULT = new Options(PERCENT_MAIN, true, 0x5DEE_CE66DL, 1);

    /** Checks the grace. */
    public Options {
      if (probationGrace < 0 || probationGrace > AGE_MAX) {
        throw new IllegalArgumentException(
            "probationGrace must be 0 to " + AGE_MAX + ": probationGrace=" + probationGrace);
      }
    }

    /** These options with a probation grace of {@code passes}. */
    public Options withProbationGrace(int passes) {
      return new Options(percentMain, adaptive, seed, passes);
    }
  }

  private final SlotView view;
  private final FrequencySketch sketch;
  private final double percentMain;
  private final boolean adaptive;
  private final int probationGrace;

  private long budgetBytes;
  private long usedBytes;
  private long windowBytes;
  private long protectedBytes;
  private long entries;
  private long windowEntries;
  private long windowMaxBytes;
  private long protectedMaxBytes;

  private long hand;
  private final long[] candidateSlots = new long[CANDIDATES];
  private final long[] candidateHashes = new long[CANDIDATES];
  private int candidateHead;
  private int candidateCount;
  private long heldVictim = NONE;
  private long heldVictimHash;

  private long[] ring = new long[16];
  private int ringHead;
  private int ringCount;

  // bumped on every read by any thread: per thread, off the lines the drain writes
  private final StripedCounts hitsInSample = new StripedCounts();
  private final StripedCounts missesInSample = new StripedCounts();
  private double previousHitRate;
  private double stepSize;

  private long random;
  private long handSteps;

  /**
   * A policy over {@code view}'s slots, with {@code sketch} and a budget of {@code budgetBytes}.
   *
   * @throws IllegalArgumentException if {@code budgetBytes} is not positive
   */
  public TinyLfuClock(SlotView view, FrequencySketch sketch, long budgetBytes) {
    this(view, sketch, budgetBytes, Options.DEFAULT);
  }

  /** As {@link #TinyLfuClock(SlotView, FrequencySketch, long)}, tuned by {@code options}. */
  public TinyLfuClock(SlotView view, FrequencySketch sketch, long budgetBytes, Options options) {
    this.view = view;
    this.sketch = sketch;
    this.percentMain = options.percentMain();
    this.adaptive = options.adaptive();
    this.probationGrace = options.probationGrace();
    this.random = options.seed() | 1;
    setBudget(budgetBytes);
  }

  /**
   * Sets the byte budget; the window and protected shares restart from their initial fractions.
   * Entries over a smaller budget leave through {@link #nextVictim}.
   *
   * @throws IllegalArgumentException if {@code budgetBytes} is not positive
   */
  public void setBudget(long budgetBytes) {
    if (budgetBytes <= 0) {
      throw new IllegalArgumentException("budget must be positive: budgetBytes=" + budgetBytes);
    }
    this.budgetBytes = budgetBytes;
    long main = (long) (percentMain * budgetBytes);
    windowMaxBytes = budgetBytes - main;
    protectedMaxBytes = (long) (PERCENT_MAIN_PROTECTED * main);
    stepSize = -CLIMBER_STEP_PERCENT * budgetBytes;
  }

  /**
   * Changes the byte budget and scales the window's and protected's shares with it, keeping what
   * the hill climber learned (the cache moves the budget as its index grows). Entries over a
   * smaller budget leave through {@link #nextVictim}.
   *
   * @throws IllegalArgumentException if {@code budgetBytes} is not positive
   */
  public void resizeBudget(long budgetBytes) {
    if (budgetBytes <= 0) {
      throw new IllegalArgumentException("budget must be positive: budgetBytes=" + budgetBytes);
    }
    if (budgetBytes == this.budgetBytes) {
      return;
    }
    double scale = (double) budgetBytes / this.budgetBytes;
    this.budgetBytes = budgetBytes;
    windowMaxBytes =
        Math.min((long) (windowMaxBytes * scale), (long) (MAX_WINDOW_PERCENT * budgetBytes));
    protectedMaxBytes = Math.min((long) (protectedMaxBytes * scale), budgetBytes - windowMaxBytes);
    stepSize *= scale;
  }

  /** The budget, in bytes. */
  public long budgetBytes() {
    return budgetBytes;
  }

  /** The bytes of the entries counted against the budget (pinned ones included). */
  public long usedBytes() {
    return usedBytes;
  }

  /** The number of entries counted against the budget. */
  public long entries() {
    return entries;
  }

  /** The window's current share of the budget, in bytes (moved by the hill climber). */
  public long windowMaxBytes() {
    return windowMaxBytes;
  }

  /** The bytes of the window entries. */
  public long windowBytes() {
    return windowBytes;
  }

  /** The bytes of the protected entries. */
  public long protectedBytes() {
    return protectedBytes;
  }

  /** How many slots the hand has passed since creation: the sweep's cost. */
  public long handSteps() {
    return handSteps;
  }

  /**
   * Records an access to an absent key, whether or not the cache then stores it. {@code hash} is
   * what {@link SlotView#hash} returns for the key once stored. Any thread, no lock.
   */
  public void onMiss(long hash) {
    sketch.increment(hash);
    missesInSample.add(StripedCounts.stripe(), 1);
  }

  /** Records a hit on the entry in {@code slot}. Any thread, no lock. */
  public void onHit(long slot) {
    recordHit(view.hash(slot));
    int bits = view.bits(slot);
    int hit = hitBits(bits);
    if (hit != bits) {
      view.compareAndSetBits(slot, bits, hit);
    }
  }

  /**
   * Records a hit on the entry of {@code hash} in the sketch and the climber's sample; the caller
   * sets the slot's bits to {@link #hitBits} itself. Any thread, no lock.
   */
  public void recordHit(long hash) {
    sketch.increment(hash);
    hitsInSample.add(StripedCounts.stripe(), 1);
  }

  /**
   * As {@link #recordHit} for each of the {@code count} hashes of {@code hashes} from {@code from},
   * in one pass: the sketch's lines for them are fetched together. Any thread, no lock.
   */
  public void recordHits(long[] hashes, int from, int count) {
    sketch.incrementAll(hashes, from, count);
    hitsInSample.add(StripedCounts.stripe(), count);
  }

  /**
   * The bits a hit leaves in a slot whose bits are {@code bits}: referenced, unless the entry is
   * not counted (LEAVING) or already referenced, when they are {@code bits} unchanged (no write).
   */
  public static int hitBits(int bits) {
    return (bits & REFERENCED) == 0 && segment(bits) != LEAVING ? bits | REFERENCED : bits;
  }

  /**
   * Counts the entry just stored in {@code slot}, whose bits are LEAVING (not counted yet): reads
   * its size from the view, sets it in the window; the caller then evicts with {@link #nextVictim}
   * until it returns -1. Returns false, counting nothing, if the slot holds no uncounted entry or
   * the view refused the change (I6).
   *
   * @throws IllegalArgumentException if the entry is larger than the whole budget (the cache
   *     rejects such a value before storing it)
   */
  public boolean onInsert(long slot) {
    int bits = view.bits(slot);
    long size = view.sizeBytes(slot);
    if (size > budgetBytes) {
      throw new IllegalArgumentException(
          "entry larger than the budget: sizeBytes=" + size + " budgetBytes=" + budgetBytes);
    }
    if (segment(bits) != LEAVING || !view.compareAndSetBits(slot, bits, bits(WINDOW, 0))) {
      return false;
    }
    onCounted(view.hash(slot), bits(WINDOW, 0), size);
    return true;
  }

  /**
   * Counts an entry of {@code sizeBytes} that was not counted, whose bits the caller has just set
   * from LEAVING to {@code bits}: a WINDOW entry is a new one (its hash joins the ring, the climber
   * samples, the window drains to probation); a PROBATION or PROTECTED one only adds to the totals.
   * The caller then evicts as after {@link #onInsert}.
   *
   * @throws IllegalArgumentException if {@code bits} are LEAVING
   */
  public void onCounted(long hash, int bits, long sizeBytes) {
    int segment = segment(bits);
    if (segment == LEAVING) {
      throw new IllegalArgumentException("a counted entry's bits are not LEAVING: bits=" + bits);
    }
    usedBytes += sizeBytes;
    entries++;
    if (segment == PROTECTED) {
      protectedBytes += sizeBytes;
    } else if (segment == WINDOW) {
      windowBytes += sizeBytes;
      windowEntries++;
      ringPush(hash);
      if (adaptive) {
        climb();
      }
      drainWindow();
    }
  }

  /**
   * Uncounts {@code count} entries of segment {@code segment} ({@link PolicyBitsLayout}) and {@code
   * sizeBytes} in all, which the index removed (or set back to LEAVING) itself, having read their
   * segment when it did. LEAVING entries were not counted: nothing changes.
   */
  public void onRemoved(int segment, long count, long sizeBytes) {
    if (segment == LEAVING) {
      return;
    }
    usedBytes -= sizeBytes;
    entries -= count;
    if (segment == WINDOW) {
      windowBytes -= sizeBytes;
      windowEntries -= count;
    } else if (segment == PROTECTED) {
      protectedBytes -= sizeBytes;
    }
  }

  /**
   * Counts the new size of the entry in {@code slot}, whose value was replaced in place and weighed
   * {@code oldSizeBytes}; the caller then evicts as after {@link #onInsert}.
   */
  public void onUpdate(long slot, long oldSizeBytes) {
    int bits = view.bits(slot);
    int segment = segment(bits);
    if (segment == LEAVING) {
      return;
    }
    long delta = view.sizeBytes(slot) - oldSizeBytes;
    usedBytes += delta;
    if (segment == WINDOW) {
      windowBytes += delta;
    } else if (segment == PROTECTED) {
      protectedBytes += delta;
    }
  }

  /**
   * Uncounts the entry in {@code slot}, which the index is about to remove (delete, expiry, or a
   * victim). A victim was uncounted when chosen, and this changes nothing then.
   */
  public void onRemove(long slot) {
    leave(slot);
  }

  /**
   * Chooses the next entry to evict while the budget is exceeded, uncounts it, marks it LEAVING and
   * returns its slot; the caller removes it. Returns -1 when the budget holds, or when it is
   * exceeded but every counted entry is pinned (the caller then fails the insert).
   */
  public long nextVictim() {
    return nextVictim(budgetBytes);
  }

  /**
   * Chooses victims as {@link #nextVictim} does until their sizes add up to at least {@code
   * bytesToFree} or {@code victims} is full, writes their slots to {@code victims} and returns how
   * many. Fewer bytes than asked are freed only if the rest is pinned (or the array is full).
   */
  public int evictUntil(long bytesToFree, long[] victims) {
    long target = usedBytes - bytesToFree;
    int count = 0;
    while (count < victims.length) {
      long victim = nextVictim(target);
      if (victim == NONE) {
        break;
      }
      victims[count++] = victim;
    }
    return count;
  }

  private long nextVictim(long targetUsedBytes) {
    // each turn that does not return consumes the held victim or a candidate whose slot changed
    // under a concurrent index (I6); with a view that refuses nothing it returns on the first
    while (true) {
      if (usedBytes <= targetUsedBytes) {
        candidateCount = 0;
        return NONE;
      }
      while (candidateCount > 0
          && !valid(candidateSlots[candidateHead], candidateHashes[candidateHead])) {
        popCandidate();
      }
      if (heldVictim != NONE && !valid(heldVictim, heldVictimHash)) {
        heldVictim = NONE;
      }
      if (heldVictim == NONE) {
        heldVictim = sweep();
        if (heldVictim != NONE) {
          heldVictimHash = view.hash(heldVictim);
        }
      }
      long victim = heldVictim;
      if (candidateCount == 0) {
        if (victim == NONE) {
          return sweepAny();
        }
        heldVictim = NONE;
        if (leave(victim)) {
          return victim;
        }
        continue;
      }
      long candidate = candidateSlots[candidateHead];
      long candidateHash = candidateHashes[candidateHead];
      popCandidate();
      if (victim != NONE && admit(candidateHash, heldVictimHash)) {
        heldVictim = NONE;
        if (leave(victim)) {
          return victim;
        }
      } else if (leave(candidate)) {
        return candidate;
      }
    }
  }

  /**
   * Moves the hand to the next unreferenced probation entry that is not waiting for a duel:
   * promotes the referenced probation entries it passes, and ages (and, while protected is over its
   * share, demotes) the protected ones. Returns NONE after AGE_MAX + 2 turns (I4).
   */
  private long sweep() {
    long slots = view.slotCount();
    long bound = (AGE_MAX + 2L) * slots;
    for (long steps = 0; steps < bound; steps++) {
      long slot = advanceHand(slots);
      if (!view.occupied(slot) || view.pinned(slot)) {
        continue;
      }
      int bits = view.bits(slot);
      switch (segment(bits)) {
        case PROBATION -> {
          if (referenced(bits)) {
            long size = view.sizeBytes(slot);
            if (view.compareAndSetBits(slot, bits, bits(PROTECTED, AGE_MAX))) {
              protectedBytes += size;
            }
          } else if (age(bits) > 0) {
            view.compareAndSetBits(slot, bits, withAge(bits, age(bits) - 1)); // the grace
          } else if (!isCandidate(slot)) {
            return slot;
          }
        }
        case PROTECTED -> {
          int age = age(bits);
          if (referenced(bits)) {
            view.compareAndSetBits(slot, bits, bits(PROTECTED, AGE_MAX));
          } else if (age > 0) {
            view.compareAndSetBits(slot, bits, withAge(bits, age - 1));
          } else if (protectedBytes > protectedMaxBytes) {
            long size = view.sizeBytes(slot);
            if (view.compareAndSetBits(slot, bits, bits(PROBATION, 0))) {
              protectedBytes -= size;
            }
          }
        }
        default -> {}
      }
    }
    return NONE;
  }

  /**
   * The last resort, when probation holds nothing to evict and no candidate waits: the first entry
   * the hand meets that is not pinned, whatever its segment (one turn at most).
   */
  private long sweepAny() {
    long slots = view.slotCount();
    for (long steps = 0; steps < slots; steps++) {
      long slot = advanceHand(slots);
      if (view.occupied(slot) && !view.pinned(slot) && leave(slot)) {
        return slot;
      }
    }
    return NONE;
  }

  /**
   * TinyLFU's rule, as Caffeine's: keep the candidate only if it was asked for more often than the
   * victim; a warm candidate that lost still gets in once in 128 times, so that an attacker who
   * floods the victim's counters cannot lock new keys out (hash flooding).
   */
  private boolean admit(long candidateHash, long victimHash) {
    int victimFrequency = sketch.frequency(victimHash);
    int candidateFrequency = sketch.frequency(candidateHash);
    if (candidateFrequency > victimFrequency) {
      return true;
    }
    return candidateFrequency >= ADMIT_HASHDOS_THRESHOLD && (nextRandom() & 127) == 0;
  }

  /**
   * Uncounts the entry in {@code slot} and marks it LEAVING; false if it was not counted or the
   * view refused the change (I6).
   */
  private boolean leave(long slot) {
    int bits = view.bits(slot);
    int segment = segment(bits);
    if (segment == LEAVING) {
      return false;
    }
    long size = view.sizeBytes(slot);
    if (!view.compareAndSetBits(slot, bits, bits(LEAVING, 0))) {
      return false;
    }
    onRemoved(segment, 1, size);
    return true;
  }

  /** Whether a kept slot still holds the same unpinned probation entry. */
  private boolean valid(long slot, long hash) {
    return slot < view.slotCount()
        && view.occupied(slot)
        && !view.pinned(slot)
        && view.hash(slot) == hash
        && segment(view.bits(slot)) == PROBATION;
  }

  private long advanceHand(long slots) {
    handSteps++;
    long slot = hand >= slots ? 0 : hand;
    hand = slot + 1;
    return slot;
  }

  /** Moves the window's eldest entries to probation, as candidates, while it is over its share. */
  private void drainWindow() {
    int budget = 2 * ringCount + 1;
    while (windowBytes > windowMaxBytes && ringCount > 0 && budget-- > 0) {
      long hash = ringPop();
      long slot = view.find(hash);
      if (slot < 0) {
        continue;
      }
      int bits = view.bits(slot);
      if (segment(bits) != WINDOW) {
        continue;
      }
      boolean pinned = view.pinned(slot);
      if (referenced(bits) && !pinned) {
        view.compareAndSetBits(slot, bits, bits & ~REFERENCED); // refused: the record stays too
        ringPush(hash);
        continue;
      }
      long size = view.sizeBytes(slot);
      if (!view.compareAndSetBits(slot, bits, bits(PROBATION, graceNow()))) {
        ringPush(hash); // hit meanwhile, or moved: look again on a later turn
        continue;
      }
      windowBytes -= size;
      windowEntries--;
      if (!pinned && candidateCount < CANDIDATES) {
        int at = (candidateHead + candidateCount++) & (CANDIDATES - 1);
        candidateSlots[at] = slot;
        candidateHashes[at] = hash;
      }
    }
  }

  /** The grace of an entry leaving the window now: none while the sketch is narrow. */
  private int graceNow() {
    return sketch.sizeBytes() >= GRACE_MIN_SKETCH_BYTES_PER_ENTRY * Math.max(entries, 1)
        ? probationGrace
        : 0;
  }

  private void popCandidate() {
    candidateHead = (candidateHead + 1) & (CANDIDATES - 1);
    candidateCount--;
  }

  private boolean isCandidate(long slot) {
    for (int i = 0; i < candidateCount; i++) {
      if (candidateSlots[(candidateHead + i) & (CANDIDATES - 1)] == slot) {
        return true;
      }
    }
    return false;
  }

  private void ringPush(long hash) {
    if (ringCount == ring.length && ringCount > 2 * windowEntries + 64) {
      compactRing();
    }
    if (ringCount == ring.length) {
      long[] grown = new long[ring.length * 2];
      for (int i = 0; i < ringCount; i++) {
        grown[i] = ring[(ringHead + i) & (ring.length - 1)];
      }
      ring = grown;
      ringHead = 0;
    }
    ring[(ringHead + ringCount) & (ring.length - 1)] = hash;
    ringCount++;
  }

  /**
   * Drops the records of entries no longer in the window (removed, or evicted by the last resort),
   * in place and in order; run when they outnumber the window's entries, so amortized O(1) per
   * insert.
   */
  private void compactRing() {
    int mask = ring.length - 1;
    int kept = 0;
    for (int i = 0; i < ringCount; i++) {
      long hash = ring[(ringHead + i) & mask];
      long slot = view.find(hash);
      if (slot >= 0 && segment(view.bits(slot)) == WINDOW) {
        ring[(ringHead + kept++) & mask] = hash;
      }
    }
    ringCount = kept;
  }

  private long ringPop() {
    long hash = ring[ringHead];
    ringHead = (ringHead + 1) & (ring.length - 1);
    ringCount--;
    return hash;
  }

  /** Caffeine's hill climber: moves the window's share by the hit ratio of the last sample. */
  private void climb() {
    long hits = hitsInSample.sum();
    long requests = hits + missesInSample.sum();
    long sample = FrequencySketch.SAMPLE_FACTOR * Math.max(entries, 16);
    if (requests < sample) {
      return;
    }
    double hitRate = (double) hits / requests;
    double change = hitRate - previousHitRate;
    double amount = change >= 0 ? stepSize : -stepSize;
    stepSize =
        Math.abs(change) >= CLIMBER_RESTART_THRESHOLD
            ? CLIMBER_STEP_PERCENT * budgetBytes * (amount >= 0 ? 1 : -1)
            : CLIMBER_STEP_DECAY_RATE * amount;
    previousHitRate = hitRate;
    hitsInSample.reset();
    missesInSample.reset();
    long adjustment = (long) amount;
    if (adjustment > 0) {
      long room = (long) (MAX_WINDOW_PERCENT * budgetBytes) - windowMaxBytes;
      long quota = Math.max(0, Math.min(adjustment, Math.min(protectedMaxBytes, room)));
      protectedMaxBytes -= quota;
      windowMaxBytes += quota;
    } else if (adjustment < 0) {
      long quota = Math.min(-adjustment, windowMaxBytes);
      windowMaxBytes -= quota;
      protectedMaxBytes += quota;
    }
  }

  private long nextRandom() {
    long x = random;
    x ^= x << 13;
    x ^= x >>> 7;
    x ^= x << 17;
    random = x;
    return x;
  }
}
