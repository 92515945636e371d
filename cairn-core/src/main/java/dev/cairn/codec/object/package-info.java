/**
 * The object codec: how records, POJOs and enums (with their nested objects, collections and JDK
 * value types) become bytes in a pile block and back, without hand-written code.
 *
 * <p>Owns: classifying a class's fields into schema descriptors ({@code Desc}), the schemas and
 * type ids of object types ({@code ObjectTypes}), the wire encodings of every supported type, the
 * per-class codecs generated with {@code java.lang.classfile} ({@code StructGenerator}), schema
 * evolution (reading an older layout into the current class), and the allow rules that keep storage
 * from choosing what gets instantiated. The layout is documented in docs/FORMAT.md, "Object
 * encoding".
 *
 * <p>Must not touch: pile memory, pointers or blocks (a codec writes into and reads from the region
 * it is handed, nothing more), {@code sun.misc.Unsafe}, or any class named by stored bytes ({@code
 * Class.forName} is never called). Not exported: the public face is {@link
 * dev.cairn.codec.CodecRegistry}, {@link dev.cairn.codec.TypeSchema} and {@link
 * dev.cairn.codec.TypeCatalog}.
 *
 * <p>Dependencies run one way: {@code CodecRegistry} builds {@code ObjectTypes}, and this package
 * uses only what a codec is made of in {@code dev.cairn.codec} ({@code Codec}, {@code TypeSchema}
 * with its type id range, {@code TypeCatalog}, {@code CairnName} and the codec exceptions), never
 * {@code CodecRegistry} itself ({@code dev.cairn.PackageDependencyTest} checks it).
 */
package dev.cairn.codec.object;
