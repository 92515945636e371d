package dev.cairn.codec;

import static dev.cairn.codec.CodecTestSupport.load;
import static dev.cairn.codec.CodecTestSupport.store;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.codec.CodecFixtures.Address;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Schema evolution: objects written with version 1 of a class, read with version 2. The two
 * versions are two classes sharing a stored name ({@link CairnName}); a catalog shared by two
 * registries plays the store that outlives a restart. Every kind of change is here: fields added,
 * removed, reordered, renamed, widened, changed incompatibly; classes renamed; enums changed;
 * nested types changed; a record turned into a POJO.
 */
class SchemaEvolutionTest {

  /** Writes {@code old} with a registry allowing its class, reads it with one allowing the new. */
  private static Object evolve(Object old, Class<?>... now) {
    TypeCatalog catalog = TypeCatalog.inMemory();
    byte[] payload = store(registry(catalog, old.getClass()), old);
    return load(registry(reloaded(catalog), now), payload);
  }

  private static CodecRegistry registry(TypeCatalog catalog, Class<?>... allowed) {
    return CodecRegistry.builder().allow(allowed).catalog(catalog).build();
  }

  /** A catalog loaded from the durable form of another's schemas: what a restart reads back. */
  private static TypeCatalog reloaded(TypeCatalog catalog) {
    TypeCatalog copy = TypeCatalog.inMemory();
    for (TypeSchema s : catalog.load()) {
      copy.onNewSchema(TypeSchema.fromBytes(s.toBytes()));
    }
    return copy;
  }

  // ---------------------------------------------------------------- added, removed, reordered

  @CairnName("evo.Added")
  record AddedV1(String name) {}

  @CairnName("evo.Added")
  record AddedV2(String name, int age, List<String> tags, Optional<String> nick, double score) {}

  @Test
  @SuppressWarnings("NullOptional") // a field the old schema lacks reads as null, Optional too
  void addedFields_getDefaults() {
    assertThat(evolve(new AddedV1("ada"), AddedV2.class))
        .isEqualTo(new AddedV2("ada", 0, null, null, 0.0));
  }

  @CairnName("evo.Removed")
  record RemovedV1(
      String name,
      Address address,
      int age,
      List<Legacy> legacy,
      Object any,
      CodecFixtures.Color color,
      int[] numbers,
      Map<String, Legacy> byName) {}

  record Legacy(String x, Map<String, List<Integer>> y, Optional<Legacy> next) {}

  @CairnName("evo.Removed")
  record RemovedV2(String name) {}

  @Test
  @SuppressWarnings("NullOptional") // a null Optional is one of the values under test
  void removedFields_areSkipped_evenOfTypesTheReaderDoesNotKnow() {
    Legacy legacy =
        new Legacy(
            "x",
            Map.of("k", List.of(1, 2)),
            Optional.of(new Legacy("y", Map.of(), Optional.empty())));
    RemovedV1 old =
        new RemovedV1(
            "ada",
            new Address("s", "c", "z"),
            36,
            List.of(legacy),
            new Legacy("in any", null, null),
            CodecFixtures.Color.BLUE,
            new int[] {1, 2, 3},
            Map.of("l", legacy));
    // the reader allows RemovedV2 only: Legacy and Address are skipped by their stored schemas
    assertThat(evolve(old, RemovedV2.class)).isEqualTo(new RemovedV2("ada"));
  }

  @CairnName("evo.Reordered")
  record ReorderedV1(int a, String b, double c, long d) {}

  @CairnName("evo.Reordered")
  record ReorderedV2(long d, double c, int a, String b) {}

  @Test
  void reorderedFields_areMatchedByName() {
    assertThat(evolve(new ReorderedV1(1, "two", 3.0, 4L), ReorderedV2.class))
        .isEqualTo(new ReorderedV2(4L, 3.0, 1, "two"));
  }

  // ---------------------------------------------------------------- renames

  @CairnName("evo.Field")
  record FieldV1(String mail, int n) {}

  @CairnName("evo.Field")
  record FieldV2(int n, @CairnName(aliases = "mail") String email) {}

  @CairnName("evo.Field")
  record FieldV3(int n, @CairnName("mail") String contact) {}

  @Test
  void renamedField_isFoundByItsAlias_orKeepsItsStoredName() {
    assertThat(evolve(new FieldV1("a@b.c", 1), FieldV2.class)).isEqualTo(new FieldV2(1, "a@b.c"));
    assertThat(evolve(new FieldV1("a@b.c", 1), FieldV3.class)).isEqualTo(new FieldV3(1, "a@b.c"));
  }

  @CairnName("evo.OldName")
  record ClassV1(int x, String y) {}

  @CairnName(value = "evo.NewName", aliases = "evo.OldName")
  record ClassV2(int x, String y) {}

  @Test
  void renamedClass_isFoundByItsAlias() {
    assertThat(evolve(new ClassV1(7, "y"), ClassV2.class)).isEqualTo(new ClassV2(7, "y"));
  }

  // ---------------------------------------------------------------- type changes

  @CairnName("evo.Widen")
  record WidenV1(int a, float b, int c, Integer d, byte e, char f, short g, Integer h) {}

  @CairnName("evo.Widen")
  record WidenV2(long a, double b, Integer c, int d, int e, long f, double g, Object h) {}

  @Test
  void widenedFields_convertLosslessly_andNullBoxesBecomeZero() {
    assertThat(
            evolve(new WidenV1(-5, 1.5f, 7, null, (byte) -2, 'x', (short) 300, 9), WidenV2.class))
        .isEqualTo(new WidenV2(-5L, 1.5, 7, 0, -2, 'x', 300.0, 9));
  }

  @CairnName("evo.Incompatible")
  record IncompatibleV1(String name, int age) {}

  @CairnName("evo.Incompatible")
  record IncompatibleV2(String name, String age) {}

  @CairnName("evo.Incompatible")
  record IncompatibleV3(String name, long[] age) {}

  @Test
  void incompatibleChange_failsClearly_namingTheTypeAndField() {
    assertThatThrownBy(() -> evolve(new IncompatibleV1("ada", 36), IncompatibleV2.class))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("evo.Incompatible.age")
        .hasMessageContaining("int")
        .hasMessageContaining("java.lang.String")
        .hasMessageContaining(IncompatibleV2.class.getName() + ".age");
    assertThatThrownBy(() -> evolve(new IncompatibleV1("ada", 36), IncompatibleV3.class))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("long[]");
  }

  @CairnName("evo.Collections")
  record CollectionsV1(List<String> tags, List<Integer> scores, Map<String, Integer> counts) {}

  @CairnName("evo.Collections")
  record CollectionsV2(Set<String> tags, List<Long> scores, Map<String, Long> counts) {}

  @Test
  void collectionFields_changeFlavourAndWidenElements() {
    CollectionsV2 v2 =
        (CollectionsV2)
            evolve(
                new CollectionsV1(List.of("a", "b", "a"), List.of(1, 2), Map.of("k", 3)),
                CollectionsV2.class);
    assertThat(v2.tags()).containsExactlyInAnyOrder("a", "b");
    assertThat(v2.scores()).containsExactly(1L, 2L);
    assertThat(v2.counts()).containsEntry("k", 3L);
  }

  // ---------------------------------------------------------------- enums

  @CairnName("evo.Color")
  enum ColorV1 {
    RED,
    GREEN,
    BLUE
  }

  @CairnName("evo.Color")
  enum ColorV2 {
    BLUE,
    @CairnName(aliases = "GREEN")
    LIME,
    RED,
    PURPLE
  }

  @CairnName("evo.Color")
  enum ColorV3 {
    RED
  }

  @CairnName("evo.Paint")
  record PaintV1(ColorV1 color, List<ColorV1> palette) {}

  @CairnName("evo.Paint")
  record PaintV2(ColorV2 color, List<ColorV2> palette) {}

  @CairnName("evo.Paint")
  record PaintV3(ColorV3 color, List<ColorV3> palette) {}

  @Test
  void enumConstants_addedReorderedOrRenamed_areMappedByName() {
    assertThat(
            evolve(new PaintV1(ColorV1.GREEN, List.of(ColorV1.RED, ColorV1.BLUE)), PaintV2.class))
        .isEqualTo(new PaintV2(ColorV2.LIME, List.of(ColorV2.RED, ColorV2.BLUE)));
    assertThat(evolve(ColorV1.BLUE, ColorV2.class)).isSameAs(ColorV2.BLUE);
  }

  @Test
  void removedEnumConstant_failsOnlyForObjectsThatHoldIt() {
    assertThat(evolve(new PaintV1(ColorV1.RED, List.of()), PaintV3.class))
        .isEqualTo(new PaintV3(ColorV3.RED, List.of()));
    assertThatThrownBy(() -> evolve(new PaintV1(ColorV1.BLUE, List.of()), PaintV3.class))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("BLUE")
        .hasMessageContaining("no longer exists");
  }

  // ---------------------------------------------------------------- nested and kinds

  @CairnName("evo.Inner")
  record InnerV1(int x) {}

  @CairnName("evo.Inner")
  record InnerV2(int x, String added) {}

  @CairnName("evo.Outer")
  record OuterV1(InnerV1 one, List<InnerV1> many, Map<String, InnerV1> byKey, Object any) {}

  @CairnName("evo.Outer")
  record OuterV2(InnerV2 one, List<InnerV2> many, Map<String, InnerV2> byKey, Object any) {}

  @Test
  void nestedTypes_evolveOnTheirOwn() {
    OuterV1 old =
        new OuterV1(
            new InnerV1(1), List.of(new InnerV1(2)), Map.of("k", new InnerV1(3)), new InnerV1(4));
    assertThat(evolve(old, OuterV2.class))
        .isEqualTo(
            new OuterV2(
                new InnerV2(1, null),
                List.of(new InnerV2(2, null)),
                Map.of("k", new InnerV2(3, null)),
                new InnerV2(4, null)));
  }

  @CairnName("evo.Kind")
  record KindV1(String a, int b) {}

  /** Version 2 is a POJO; fields missing from old objects keep the constructor's values. */
  @CairnName("evo.Kind")
  static final class KindV2 {
    String a;
    int b;
    List<String> roles = new ArrayList<>(List.of("user"));
    int level = 7;
  }

  @Test
  void recordBecomingPojo_keepsItsFields_andPojoDefaultsStay() {
    KindV2 v2 = (KindV2) evolve(new KindV1("x", 3), KindV2.class);
    assertThat(v2.a).isEqualTo("x");
    assertThat(v2.b).isEqualTo(3);
    assertThat(v2.roles).containsExactly("user");
    assertThat(v2.level).isEqualTo(7);
  }

  @CairnName("evo.Color")
  record NotAnEnum(int ordinal) {}

  @Test
  void enumBecomingRecord_isIncompatible() {
    assertThatThrownBy(() -> evolve(ColorV1.RED, NotAnEnum.class))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("evo.Color");
  }

  // ---------------------------------------------------------------- the catalog across restarts

  @Test
  void unchangedClass_reusesItsStoredSchema_afterARestart() {
    TypeCatalog catalog = TypeCatalog.inMemory();
    CodecRegistry before = registry(catalog, AddedV1.class);
    byte[] old = store(before, new AddedV1("a"));
    CodecRegistry after = registry(reloaded(catalog), AddedV1.class);
    assertThat(after.typeIdOf(AddedV1.class)).isEqualTo(before.typeIdOf(AddedV1.class));
    assertThat(after.schemas()).hasSize(1);
    assertThat(load(after, old)).isEqualTo(new AddedV1("a"));
  }

  @Test
  @SuppressWarnings("NullOptional") // a field the old schema lacks reads as null, Optional too
  void oldAndNewObjects_areReadSideBySide_andNewOnesGetANewSchema() {
    TypeCatalog catalog = TypeCatalog.inMemory();
    byte[] old = store(registry(catalog, AddedV1.class), new AddedV1("old"));
    CodecRegistry now = registry(catalog, AddedV2.class);
    byte[] fresh = store(now, new AddedV2("new", 1, List.of(), Optional.empty(), 2.0));
    assertThat(old[0]).isNotEqualTo(fresh[0]);
    assertThat(load(now, old)).isEqualTo(new AddedV2("old", 0, null, null, 0));
    assertThat(load(now, fresh)).isEqualTo(new AddedV2("new", 1, List.of(), Optional.empty(), 2.0));
    assertThat(now.schemas())
        .extracting(TypeSchema::typeName)
        .containsExactly("evo.Added", "evo.Added");
    assertThatThrownBy(
            () ->
                now.<Object>codecOf(old[0])
                    .encode(
                        new AddedV2("x", 0, null, null, 0),
                        java.lang.foreign.MemorySegment.ofArray(new byte[64]),
                        0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("older layout");
  }

  @Test
  void storedTypeTheReaderDoesNotAllow_isRefused_withTheWayToAllowIt() {
    TypeCatalog catalog = TypeCatalog.inMemory();
    byte[] payload = store(registry(catalog, AddedV1.class), new AddedV1("a"));
    CodecRegistry other = registry(catalog, ReorderedV2.class);
    assertThatThrownBy(() -> load(other, payload))
        .isInstanceOf(UnknownTypeException.class)
        .hasMessageContaining("evo.Added")
        .hasMessageContaining("allow");
  }

  @Test
  void catalogIdsCollidingWithRegisteredCodecs_areRefusedAtBuild() {
    TypeCatalog catalog = TypeCatalog.inMemory();
    store(registry(catalog, AddedV1.class), new AddedV1("a")); // takes id 16
    assertThatThrownBy(
            () ->
                CodecRegistry.builder()
                    .register(16, ObjectCodecTest.OtherCodec.of(Address.class))
                    .allow(AddedV1.class)
                    .catalog(catalog)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("evo.Added");
  }
}
