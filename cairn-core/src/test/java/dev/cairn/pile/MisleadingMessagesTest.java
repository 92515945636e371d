package dev.cairn.pile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.codec.CodecRegistry;
import dev.cairn.codec.UnknownTypeException;
import dev.cairn.pile.shop.Line;
import dev.cairn.pile.shop.Note;
import dev.cairn.pile.shop.Order;
import dev.cairn.pile.shop.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 18, item 8: each message says what the user most likely wants, and what it suggests works
 * when done. Each suggestion found in a message is carried out here and must then work.
 */
class MisleadingMessagesTest {

  private static final Order ORDER =
      new Order(7, "Ada", List.of(new Line("sku-1", 2), new Line("sku-2", 1)), Status.PAID);

  /** {@code allow(Name.class)} as a message writes it, and {@code allowPackage("name")}. */
  private static final Pattern ALLOW = Pattern.compile("\\ballow\\(([\\w.$]+)\\.class\\)");

  private static final Pattern ALLOW_PACKAGE = Pattern.compile("allowPackage\\(\"([^\"]*)\"\\)");

  @TempDir Path dir;

  private static Pile volatilePile(CodecRegistry codecs) {
    return Pile.offHeap(PileOptions.builder().segmentBytes(1 << 20).codecs(codecs).build());
  }

  private static String refusal(CodecRegistry codecs, Object value) {
    try (Pile pile = volatilePile(codecs)) {
      Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> pile.put(value));
      assertThat(thrown).isInstanceOf(UnknownTypeException.class);
      return thrown.getMessage();
    }
  }

  // ------------------------------------------------------------------ a class not allowed

  @Test
  void putOfARecord_withTheDefaultRegistry_suggestsAllowingIt_andTheSuggestionWorks() {
    String message = refusal(CodecRegistry.builtIn(), ORDER);

    assertThat(message)
        .contains(Order.class.getName())
        .contains("PileOptions.builder().codecs(CodecRegistry.builder().allow(Order.class)")
        .contains(".allowPackage(\"dev.cairn.pile.shop\")");
    // what it says, done: allow the class
    try (Pile pile = volatilePile(CodecRegistry.builder().allow(Order.class).build())) {
      assertThat(pile.get(pile.put(ORDER), Order.class)).isEqualTo(ORDER);
    }
    // or its package
    try (Pile pile =
        volatilePile(CodecRegistry.builder().allowPackage("dev.cairn.pile.shop").build())) {
      assertThat(pile.get(pile.put(ORDER), Order.class)).isEqualTo(ORDER);
    }
  }

  @Test
  void putOfARecord_withARegistryAllowingOthers_saysTheSame() {
    String message = refusal(CodecRegistry.builder().allow(Line.class).build(), ORDER);

    assertThat(message)
        .contains("CodecRegistry.builder().allow(Order.class)")
        .contains(".allowPackage(\"dev.cairn.pile.shop\")");
    everySuggestionWorks(message, ORDER);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void putOfAPlainObject_suggestsNothingThatThrows_andSaysWhyItCannotBeStored(
      boolean registryAllowsSomething) {
    CodecRegistry codecs =
        registryAllowsSomething
            ? CodecRegistry.builder().allow(Order.class).build()
            : CodecRegistry.builtIn();

    String message = refusal(codecs, new Object());

    assertThat(message).contains("java.lang.Object").contains("cannot be stored");
    assertThat(message)
        .doesNotContain("allow(Object.class)")
        .doesNotContain("allowPackage(\"java.lang\")");
    everySuggestionWorks(message, new Object());
  }

  @Test
  @SuppressWarnings("UnnecessaryStringBuilder") // a StringBuilder is the JDK value under test
  void putOfAJdkClass_suggestsNothingThatThrows() {
    String message = refusal(CodecRegistry.builtIn(), new StringBuilder("x"));

    assertThat(message)
        .contains("java.lang.StringBuilder")
        .contains("cannot be stored")
        .doesNotContain("allowPackage(\"java.lang\")");
    everySuggestionWorks(message, new StringBuilder("x"));
  }

  @Test
  void putOfAJdkValueType_suggestsARecordAroundIt_andThatWorks() {
    String message = refusal(CodecRegistry.builtIn(), LocalDate.EPOCH);

    assertThat(message)
        .contains("java.time.LocalDate")
        .contains("record")
        .doesNotContain("allowPackage(\"java.time\")");
    everySuggestionWorks(message, LocalDate.EPOCH);
    record Dated(LocalDate value) {} // what it says: a record of your own around it, allowed
    try (Pile pile = volatilePile(CodecRegistry.builder().allow(Dated.class).build())) {
      assertThat(pile.get(pile.put(new Dated(LocalDate.EPOCH))))
          .isEqualTo(new Dated(LocalDate.EPOCH));
    }
  }

  @Test
  void putOfAJdkCollection_namesItsInterface_notItsHiddenClass() {
    String message = refusal(CodecRegistry.builtIn(), List.of(1, 2));

    assertThat(message).contains("record Holder(List<...> value)").doesNotContain("List12 value");
    record Listed(List<Integer> value) {} // what it says, allowed
    try (Pile pile = volatilePile(CodecRegistry.builder().allow(Listed.class).build())) {
      assertThat(pile.get(pile.put(new Listed(List.of(1, 2)))))
          .isEqualTo(new Listed(List.of(1, 2)));
    }
  }

  @Test
  void putOfAJdkEnum_suggestsAllowingItByClass_andThatWorks() {
    String message = refusal(CodecRegistry.builtIn(), TimeUnit.SECONDS);

    assertThat(message)
        .contains("allow(java.util.concurrent.TimeUnit.class)")
        .doesNotContain("allowPackage(");
    everySuggestionWorks(message, TimeUnit.SECONDS);
  }

  @Test
  void putOfAnAnonymousClass_suggestsNothingThatThrows() {
    Object anonymous =
        new Object() {
          @SuppressWarnings("unused")
          final int x = 1;
        };
    String message = refusal(CodecRegistry.builtIn(), anonymous);

    assertThat(message).contains("anonymous").doesNotContain("allow(.class)");
    everySuggestionWorks(message, anonymous);
  }

  /**
   * Carries out every {@code allow(X.class)} of the value's class and every {@code
   * allowPackage("p")} in {@code message}: each must be accepted by the builder, and a pile with it
   * must store {@code value}. Any other class a message names is a placeholder for a class of the
   * user's own ({@code YourRecord}, {@code Holder}), never a class of the JDK.
   */
  private static void everySuggestionWorks(String message, Object value) {
    Matcher allow = ALLOW.matcher(message);
    while (allow.find()) {
      Class<?> suggested = resolve(allow.group(1), value.getClass());
      if (suggested == null) {
        assertThat(allow.group(1)).as("suggested in: %s", message).isIn("YourRecord", "Holder");
        continue;
      }
      storesAndReads(CodecRegistry.builder().allow(suggested)::build, value, message);
    }
    Matcher allowPackage = ALLOW_PACKAGE.matcher(message);
    while (allowPackage.find()) {
      String name = allowPackage.group(1);
      storesAndReads(() -> CodecRegistry.builder().allowPackage(name).build(), value, message);
    }
  }

  /**
   * The class a suggestion names: a simple or nested name of {@code expected}, or its full name.
   */
  private static Class<?> resolve(String written, Class<?> expected) {
    String full = expected.getName().replace('$', '.');
    return full.equals(written) || full.endsWith("." + written) ? expected : null;
  }

  private static void storesAndReads(
      java.util.function.Supplier<CodecRegistry> codecs, Object value, String message) {
    assertThatCode(
            () -> {
              try (Pile pile = volatilePile(codecs.get())) {
                assertThat(pile.get(pile.put(value))).isEqualTo(value);
              }
            })
        .as("doing what the message says: %s", message)
        .doesNotThrowAnyException();
  }

  // ------------------------------------------------------------------ a transaction after close

  @ParameterizedTest
  @ValueSource(strings = {"volatile", "sync", "periodic"})
  void everyTransactionOperation_afterThePileClosed_throwsPileClosed(String kind)
      throws IOException {
    List<Consumer<Transaction>> operations =
        List.of(
            tx -> tx.put("more"),
            tx -> tx.update(0x1234L, "new"),
            tx -> tx.delete(0x1234L),
            tx -> tx.get(0x1234L),
            Transaction::commit,
            tx -> tx.commit(Durability.SYNC),
            tx -> tx.commit(Durability.NONE),
            tx -> {
              var unused = tx.commitAsync(); // throws: no future is made
            });
    for (int i = 0; i < operations.size(); i++) {
      Consumer<Transaction> operation = operations.get(i);
      Path where = dir.resolve(kind + i);
      Pile pile =
          switch (kind) {
            case "volatile" -> volatilePile(CodecRegistry.builtIn());
            case "sync" -> Pile.open(where, PersistentPileTest.options(Durability.SYNC));
            default -> Pile.open(where, PersistentPileTest.options(Durability.PERIODIC));
          };
      Transaction tx = pile.beginTransaction();
      tx.put("in the transaction");
      pile.close();

      assertThatThrownBy(() -> operation.accept(tx))
          .as("%s operation %d", kind, i)
          .isInstanceOf(PileClosedException.class);
      assertThatCode(tx::rollback).as("rollback stays idempotent").doesNotThrowAnyException();
      assertThatCode(tx::close).doesNotThrowAnyException();
    }
  }

  @Test
  void aCommittedTransaction_afterThePileClosed_alsoSaysClosed() {
    Pile pile = volatilePile(CodecRegistry.builtIn());
    Transaction tx = pile.beginTransaction();
    tx.put("x");
    tx.commit();
    pile.close();

    assertThatThrownBy(tx::commit).isInstanceOf(PileClosedException.class);
  }

  // ------------------------------------------------------------------ allowPackage after restart

  /**
   * A class allowed only by its package is readable in a new pile instance before anything of it
   * was put there: the registry finds it by the stored name. The second instance only reads.
   */
  @Test
  void aClassAllowedByPackage_isReadableAtOnce_afterAReopen() throws IOException {
    PileOptions options =
        PileOptions.builder()
            .segmentBytes(1 << 20)
            .codecs(CodecRegistry.builder().allowPackage("dev.cairn.pile.shop").build())
            .durability(Durability.SYNC)
            .logFileBytes(1 << 20)
            .logFileCount(2)
            .build();
    Note note = new Note("gift", ORDER); // an Order in an Object field: found by id alone
    long order;
    long noted;
    try (Pile pile = Pile.open(dir, options)) {
      order = pile.put(ORDER);
      noted = pile.put(note);
    }
    // a new registry too, as a new process would build
    PileOptions reopened =
        PileOptions.builder()
            .segmentBytes(1 << 20)
            .codecs(CodecRegistry.builder().allowPackage("dev.cairn.pile.shop").build())
            .durability(Durability.SYNC)
            .logFileBytes(1 << 20)
            .logFileCount(2)
            .build();
    try (Pile pile = Pile.open(dir, reopened)) {
      assertThat(pile.get(noted)).isEqualTo(note);
      assertThat(pile.get(order, Order.class)).isEqualTo(ORDER);
    }
    try (Pile pile = Pile.open(dir, reopened)) {
      assertThat(pile.get(order, Order.class)).as("a typed get first").isEqualTo(ORDER);
    }
  }

  @Test
  void aStoredClassOfAPackageNoLongerAllowed_staysUnreadable_withTheWayToAllowIt()
      throws IOException {
    PileOptions options =
        PileOptions.builder()
            .segmentBytes(1 << 20)
            .codecs(CodecRegistry.builder().allowPackage("dev.cairn.pile.shop").build())
            .durability(Durability.SYNC)
            .logFileBytes(1 << 20)
            .logFileCount(2)
            .build();
    long order;
    try (Pile pile = Pile.open(dir, options)) {
      order = pile.put(ORDER);
    }
    PileOptions other =
        PileOptions.builder()
            .segmentBytes(1 << 20)
            .codecs(CodecRegistry.builder().allow(Note.class).build())
            .durability(Durability.SYNC)
            .logFileBytes(1 << 20)
            .logFileCount(2)
            .build();
    try (Pile pile = Pile.open(dir, other)) {
      assertThatThrownBy(() -> pile.get(order))
          .isInstanceOf(UnknownTypeException.class)
          .hasMessageContaining(Order.class.getName())
          .hasMessageContaining("allow(");
    }
  }
}
