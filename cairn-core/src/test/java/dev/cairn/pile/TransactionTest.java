package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Transactions on volatile and persistent piles: atomicity, rollback, conflicts, isolation. */
class TransactionTest {

  @TempDir Path dir;
  private Pile pile;

  private Pile pile(String kind) throws IOException {
    pile =
        switch (kind) {
          case "volatile" -> Pile.offHeap(PileOptions.builder().segmentBytes(1 << 20).build());
          case "none" -> Pile.open(dir, PersistentPileTest.options(Durability.NONE));
          default -> Pile.open(dir, PersistentPileTest.options(Durability.SYNC));
        };
    return pile;
  }

  @AfterEach
  void close() {
    if (pile != null) {
      pile.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"volatile", "none", "sync"})
  void aCommitAppliesEverything(String kind) throws IOException {
    Pile pile = pile(kind);
    long keep = pile.put("old");
    long gone = pile.put("doomed");
    long added;
    try (Transaction tx = pile.beginTransaction()) {
      added = tx.put("new");
      tx.update(keep, "a value longer than the old one, so that it needs a new block");
      tx.delete(gone);
      assertThat(tx.get(keep))
          .isEqualTo("a value longer than the old one, so that it needs a new block");
      assertThat(pile.get(keep)).as("not applied before commit").isEqualTo("old");
      assertThat(pile.get(gone)).isEqualTo("doomed");
      pile.verify();
      tx.commit();
    }
    assertThat(pile.get(added)).isEqualTo("new");
    assertThat(pile.get(keep))
        .isEqualTo("a value longer than the old one, so that it needs a new block");
    assertThatThrownBy(() -> pile.get(gone)).isInstanceOf(StalePointerException.class);
    assertThat(pile.stats().objectCount()).isEqualTo(2);
    pile.verify();
  }

  @ParameterizedTest
  @ValueSource(strings = {"volatile", "none", "sync"})
  void aRollbackLeavesNoTrace(String kind) throws IOException {
    Pile pile = pile(kind);
    long keep = pile.put("old");
    PileStats before = pile.stats();
    long added;
    try (Transaction tx = pile.beginTransaction()) {
      added = tx.put("new");
      tx.update(keep, "changed");
      tx.update(keep, "changed twice");
      tx.delete(keep);
      tx.update(added, "x");
    } // closed without commit
    assertThatThrownBy(() -> pile.get(added)).isInstanceOf(StalePointerException.class);
    assertThat(pile.get(keep)).isEqualTo("old");
    PileStats after = pile.stats();
    assertThat(after.objectCount()).isEqualTo(before.objectCount());
    assertThat(after.allocatedBytes()).isEqualTo(before.allocatedBytes());
    assertThat(after.utilizedBytes()).isEqualTo(before.utilizedBytes());
    pile.verify();
  }

  @ParameterizedTest
  @ValueSource(strings = {"volatile", "sync"})
  void aConflictingDeleteFailsTheWholeCommit(String kind) throws IOException {
    Pile pile = pile(kind);
    long a = pile.put("a");
    long b = pile.put("b");
    Transaction tx = pile.beginTransaction();
    long added = tx.put("added");
    tx.update(a, "a2");
    tx.update(b, "b2");
    pile.delete(b); // another writer wins
    assertThatThrownBy(tx::commit).isInstanceOf(StalePointerException.class);
    assertThat(pile.get(a)).isEqualTo("a");
    assertThatThrownBy(() -> pile.get(added)).isInstanceOf(StalePointerException.class);
    assertThatThrownBy(tx::commit)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("rolled back");
    assertThat(pile.stats().objectCount()).isEqualTo(1);
    pile.verify();
  }

  @Test
  void commitAsyncCompletesWhenDurable() throws Exception {
    Pile pile = pile("sync");
    Transaction tx = pile.beginTransaction();
    long p = tx.put("async");
    tx.commitAsync().get();
    assertThat(pile.get(p)).isEqualTo("async");
  }

  @Test
  void closingThePileRollsBackOpenTransactionsDurably() throws IOException {
    Pile first = pile("sync");
    long keep = first.put("keep");
    Transaction tx = first.beginTransaction();
    long added = tx.put("never committed");
    tx.update(keep, "never applied");
    first.close();
    pile = Pile.open(dir, PersistentPileTest.options(Durability.SYNC));
    assertThat(pile.get(keep)).isEqualTo("keep");
    assertThatThrownBy(() -> pile.get(added)).isInstanceOf(StalePointerException.class);
    assertThat(pile.stats().objectCount()).isEqualTo(1);
    pile.verify();
  }

  @ParameterizedTest
  @ValueSource(strings = {"volatile", "sync"})
  void randomTransactionsMatchAModel(String kind) throws IOException {
    Pile pile = pile(kind);
    SplittableRandom random = new SplittableRandom(PileTestSupport.seed("randomTransactions"));
    Map<Long, byte[]> model = new HashMap<>();
    List<Long> live = new ArrayList<>();
    for (int round = 0; round < 300; round++) {
      Map<Long, byte[]> next = new HashMap<>(model);
      List<Long> nextLive = new ArrayList<>(live);
      Transaction tx = pile.beginTransaction();
      int ops = 1 + random.nextInt(6);
      for (int i = 0; i < ops; i++) {
        int op = random.nextInt(3);
        if (op == 0 || nextLive.isEmpty()) {
          byte[] value = PileTestSupport.randomBytes(random, random.nextInt(200));
          long p = tx.put(value);
          next.put(p, value);
          nextLive.add(p);
        } else if (op == 1) {
          long p = nextLive.get(random.nextInt(nextLive.size()));
          byte[] value = PileTestSupport.randomBytes(random, random.nextInt(400));
          tx.update(p, value);
          next.put(p, value);
        } else {
          long p = nextLive.remove(random.nextInt(nextLive.size()));
          tx.delete(p);
          next.remove(p);
        }
      }
      if (random.nextInt(4) == 0) {
        tx.rollback();
      } else {
        tx.commit();
        model = next;
        live = nextLive;
      }
      if (round % 50 == 0) {
        PersistentPileTest.assertMatches(pile, model);
      }
    }
    PersistentPileTest.assertMatches(pile, model);
  }

  @Test
  void aTransactionMayChooseItsOwnDurability() throws IOException {
    Pile pile = pile("sync");
    long fast;
    try (Transaction tx = pile.beginTransaction()) {
      fast = tx.put("fast");
      tx.commit(Durability.NONE);
    }
    long soon;
    try (Transaction tx = pile.beginTransaction()) {
      soon = tx.put("soon");
      tx.commit(Durability.PERIODIC);
    }
    assertThat(pile.get(fast)).isEqualTo("fast");
    assertThat(pile.get(soon)).isEqualTo("soon");
    pile.close();
    this.pile = Pile.open(dir, PersistentPileTest.options(Durability.SYNC));
    assertThat(this.pile.get(fast)).isEqualTo("fast");
  }

  @Test
  void aPileWithoutALogRefusesADurableCommit() throws IOException {
    Pile pile = pile("none");
    Transaction tx = pile.beginTransaction();
    long p = tx.put("x");
    assertThatThrownBy(() -> tx.commit(Durability.SYNC))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("checkpoint");
    tx.commit(Durability.NONE);
    assertThat(pile.get(p)).isEqualTo("x");
  }
}
