package dev.cairn.codec.object;

import static java.lang.constant.ConstantDescs.CD_MethodHandle;
import static java.lang.constant.ConstantDescs.CD_MethodHandles;
import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_void;

import dev.cairn.codec.object.Desc.Prim;
import dev.cairn.codec.object.StructModel.FieldModel;
import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.DirectMethodHandleDesc;
import java.lang.constant.DynamicConstantDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes, with the JDK's {@code java.lang.classfile} API, a hidden {@link StructCodec} subclass per
 * record or POJO layout, so that no field is read or set through reflection on the hot path.
 *
 * <h2>Implementation note</h2>
 *
 * <pre>{@code
 * The generated class lives in this package (defined through this class's own lookup) and
 * refers to no user class: every user-typed value is an Object in its descriptors. The field
 * getters, setters and constructor are method handles from the user class's private lookup,
 * adapted (asType) to those erased types and passed as the hidden class's class data; the code
 * loads each with ldc of a dynamic constant (MethodHandles.classDataAt), which the JIT treats as
 * a constant, so invokeExact on it inlines down to the field read, the accessor or the
 * constructor. Field codecs are class data too: their exact class is then known to the JIT and
 * their calls inline as well. Primitive fields are read and written through Out and In methods,
 * so they are never boxed.
 *
 * For Person(String name, ..., int age, double salary, ...) the generated write is, in effect:
 *
 *   void write(Object v, Out out, int depth) {
 *     C0.write((Object) G0.invokeExact(v), out, depth);    // C0 = the String codec
 *     ...
 *     out.putZigZagInt((int) G3.invokeExact(v));
 *     out.putDouble((double) G4.invokeExact(v));
 *     ...
 *   }
 *
 * and read, for a record, reads every field into a local and calls the canonical constructor.
 * Reading an older layout is the same code with a different plan: stored fields that no current
 * field answers to are skipped, current fields with no stored counterpart keep their defaults.
 * The methods are straight-line code (no branches), so no stack maps need computing.
 * }</pre>
 */
final class StructGenerator {
  private StructGenerator() {}

  private static final ClassDesc CD_STRUCT_CODEC = desc(StructCodec.class);
  private static final ClassDesc CD_VALUE_CODEC = desc(ValueCodec.class);
  private static final ClassDesc CD_IN = desc(In.class);
  private static final ClassDesc CD_OUT = desc(Out.class);
  private static final ClassDesc CD_VALUE_CODECS = desc(ValueCodecs.class);

  private static final MethodTypeDesc MTD_WRITE =
      MethodTypeDesc.of(CD_void, CD_Object, CD_OUT, CD_int);
  private static final MethodTypeDesc MTD_READ = MethodTypeDesc.of(CD_Object, CD_IN, CD_int);
  private static final MethodTypeDesc MTD_SKIP = MethodTypeDesc.of(CD_void, CD_IN, CD_int);

  private static final DirectMethodHandleDesc BSM_CLASS_DATA_AT =
      ConstantDescs.ofConstantBootstrap(CD_MethodHandles, "classDataAt", CD_Object, CD_int);

  /** One step of reading a stored body: a stored field, in stored order. */
  sealed interface ReadStep {}

  /** A stored primitive read straight into primitive field {@code field}, widened if needed. */
  record Direct(Prim stored, int field) implements ReadStep {}

  /** A stored value read through {@code codec} into field {@code field} (unboxed if primitive). */
  record Via(ValueCodec codec, int field) implements ReadStep {}

  /** A stored field the current class does not have. */
  record Skip(ValueCodec codec) implements ReadStep {}

  /**
   * Generates a codec for {@code model}.
   *
   * @param writeCodecs per field, the codec of a reference field (null for a primitive one); null
   *     altogether for a read-only codec of an older layout
   * @param plan how to read a stored body
   */
  static StructCodec generate(StructModel model, ValueCodec[] writeCodecs, List<ReadStep> plan) {
    List<Object> data = new ArrayList<>();
    String simple = model.type.getSimpleName().replaceAll("[^A-Za-z0-9_]", "_");
    ClassDesc self =
        ClassDesc.of(
            StructCodec.class.getPackageName(),
            "StructCodec$" + (writeCodecs == null ? "Old" : "") + simple);
    byte[] bytes =
        ClassFile.of()
            .build(
                self,
                clb -> {
                  clb.withFlags(ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC);
                  clb.withSuperclass(CD_STRUCT_CODEC);
                  clb.withMethodBody(
                      ConstantDescs.INIT_NAME,
                      ConstantDescs.MTD_void,
                      0,
                      cob ->
                          cob.aload(0)
                              .invokespecial(
                                  CD_STRUCT_CODEC, ConstantDescs.INIT_NAME, ConstantDescs.MTD_void)
                              .return_());
                  if (writeCodecs != null) {
                    clb.withMethodBody(
                        "write",
                        MTD_WRITE,
                        ClassFile.ACC_FINAL,
                        cob -> write(cob, model, writeCodecs, data));
                  } else {
                    clb.withMethodBody(
                        "write", MTD_WRITE, ClassFile.ACC_FINAL, StructGenerator::readOnly);
                  }
                  clb.withMethodBody(
                      "read", MTD_READ, ClassFile.ACC_FINAL, cob -> read(cob, model, plan, data));
                });
    try {
      MethodHandles.Lookup hidden =
          MethodHandles.lookup().defineHiddenClassWithClassData(bytes, List.copyOf(data), true);
      MethodHandle ctor =
          hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class));
      return (StructCodec) ctor.invoke();
    } catch (Throwable e) {
      throw new IllegalStateException("cannot generate the codec of " + model.type.getName(), e);
    }
  }

  private static void readOnly(CodeBuilder cob) {
    ClassDesc ise = desc(IllegalStateException.class);
    cob.new_(ise)
        .dup()
        .ldc("an older layout is read-only: objects are always written with the current one")
        .invokespecial(
            ise, ConstantDescs.INIT_NAME, MethodTypeDesc.of(CD_void, ConstantDescs.CD_String))
        .athrow();
  }

  // ---------------------------------------------------------------------------------- write

  private static void write(
      CodeBuilder cob, StructModel model, ValueCodec[] codecs, List<Object> data) {
    // locals: 0 this, 1 v, 2 out, 3 depth
    for (int i = 0; i < model.fields.size(); i++) {
      FieldModel f = model.fields.get(i);
      Prim p = Prim.ofPrimitive(f.raw);
      if (p != null) {
        cob.aload(2);
        loadConstant(cob, data, f.getter, CD_MethodHandle);
        cob.aload(1);
        invokeExact(cob, desc(f.raw), CD_Object);
        cob.invokevirtual(CD_OUT, putMethod(p), MethodTypeDesc.of(CD_void, desc(f.raw)));
      } else {
        loadConstant(cob, data, codecs[i], CD_VALUE_CODEC);
        loadConstant(cob, data, f.getter, CD_MethodHandle);
        cob.aload(1);
        invokeExact(cob, CD_Object, CD_Object);
        cob.aload(2).iload(3);
        cob.invokevirtual(CD_VALUE_CODEC, "write", MTD_WRITE);
      }
    }
    cob.return_();
  }

  private static String putMethod(Prim p) {
    return switch (p) {
      case BOOLEAN -> "putBoolean";
      case BYTE -> "putByte";
      case SHORT -> "putShort";
      case CHAR -> "putChar";
      case INT -> "putZigZagInt";
      case LONG -> "putZigZagLong";
      case FLOAT -> "putFloat";
      case DOUBLE -> "putDouble";
    };
  }

  private static String readMethod(Prim p) {
    return switch (p) {
      case BOOLEAN -> "readBoolean";
      case BYTE -> "readByte";
      case SHORT -> "readShort";
      case CHAR -> "readChar";
      case INT -> "readZigZagInt";
      case LONG -> "readZigZagLong";
      case FLOAT -> "readFloat";
      case DOUBLE -> "readDouble";
    };
  }

  private static String unboxMethod(Prim p) {
    return "unbox" + Character.toUpperCase(p.primName.charAt(0)) + p.primName.substring(1);
  }

  // ---------------------------------------------------------------------------------- read

  private static void read(
      CodeBuilder cob, StructModel model, List<ReadStep> plan, List<Object> data) {
    // locals: 0 this, 1 in, 2 depth, then one per field
    List<FieldModel> fields = model.fields;
    int[] slot = new int[fields.size()];
    int next = 3;
    for (int i = 0; i < fields.size(); i++) {
      slot[i] = next;
      TypeKind kind = TypeKind.from(desc(StructModel.erase(fields.get(i).raw)));
      next += kind.slotSize();
      switch (kind) {
        case LONG -> cob.lconst_0();
        case FLOAT -> cob.fconst_0();
        case DOUBLE -> cob.dconst_0();
        case REFERENCE -> cob.aconst_null();
        default -> cob.iconst_0();
      }
      cob.storeLocal(kind, slot[i]);
    }
    boolean[] assigned = new boolean[fields.size()];
    for (ReadStep step : plan) {
      switch (step) {
        case Direct(Prim stored, int field) -> {
          Prim target = Prim.ofPrimitive(fields.get(field).raw);
          cob.aload(1);
          cob.invokevirtual(CD_IN, readMethod(stored), MethodTypeDesc.of(desc(stored.primitive)));
          widen(cob, stored, target);
          cob.storeLocal(TypeKind.from(desc(target.primitive)), slot[field]);
          assigned[field] = true;
        }
        case Via(ValueCodec codec, int field) -> {
          loadConstant(cob, data, codec, CD_VALUE_CODEC);
          cob.aload(1).iload(2);
          cob.invokevirtual(CD_VALUE_CODEC, "read", MTD_READ);
          Prim target = Prim.ofPrimitive(fields.get(field).raw);
          if (target != null) {
            cob.invokestatic(
                CD_VALUE_CODECS,
                unboxMethod(target),
                MethodTypeDesc.of(desc(target.primitive), CD_Object));
            cob.storeLocal(TypeKind.from(desc(target.primitive)), slot[field]);
          } else {
            cob.astore(slot[field]);
          }
          assigned[field] = true;
        }
        case Skip(ValueCodec codec) -> {
          loadConstant(cob, data, codec, CD_VALUE_CODEC);
          cob.aload(1).iload(2);
          cob.invokevirtual(CD_VALUE_CODEC, "skip", MTD_SKIP);
        }
      }
    }
    if (model.constructor != null) {
      loadConstant(cob, data, model.constructor, CD_MethodHandle);
      ClassDesc[] params = new ClassDesc[fields.size()];
      for (int i = 0; i < fields.size(); i++) {
        params[i] = desc(StructModel.erase(fields.get(i).raw));
        cob.loadLocal(TypeKind.from(params[i]), slot[i]);
      }
      cob.invokevirtual(CD_MethodHandle, "invokeExact", MethodTypeDesc.of(CD_Object, params));
      cob.areturn();
    } else {
      int object = next;
      loadConstant(cob, data, model.noArgConstructor, CD_MethodHandle);
      cob.invokevirtual(CD_MethodHandle, "invokeExact", MethodTypeDesc.of(CD_Object));
      cob.astore(object);
      for (int i = 0; i < fields.size(); i++) {
        if (!assigned[i]) {
          continue; // missing from the stored layout: keeps the constructor's value
        }
        ClassDesc type = desc(StructModel.erase(fields.get(i).raw));
        loadConstant(cob, data, fields.get(i).setter, CD_MethodHandle);
        cob.aload(object);
        cob.loadLocal(TypeKind.from(type), slot[i]);
        cob.invokevirtual(
            CD_MethodHandle, "invokeExact", MethodTypeDesc.of(CD_void, CD_Object, type));
      }
      cob.aload(object).areturn();
    }
  }

  /** Widens a stored primitive on the stack to the field's type ({@link Prim#widensTo}). */
  private static void widen(CodeBuilder cob, Prim from, Prim to) {
    if (from == to) {
      return;
    }
    if (from == Prim.FLOAT) {
      cob.f2d(); // FLOAT widens only to DOUBLE
      return;
    }
    switch (to) { // from is int-like (byte, short, char, int)
      case LONG -> cob.i2l();
      case FLOAT -> cob.i2f();
      case DOUBLE -> cob.i2d();
      default -> {} // short or int: already an int on the stack
    }
  }

  // ---------------------------------------------------------------------------------- helpers

  private static void invokeExact(CodeBuilder cob, ClassDesc returns, ClassDesc... params) {
    cob.invokevirtual(CD_MethodHandle, "invokeExact", MethodTypeDesc.of(returns, params));
  }

  /** Pushes {@code value} as a class-data constant: ldc of MethodHandles.classDataAt(index). */
  private static void loadConstant(
      CodeBuilder cob, List<Object> data, Object value, ClassDesc type) {
    int index = -1;
    for (int i = 0; i < data.size(); i++) {
      if (data.get(i) == value) {
        index = i;
        break;
      }
    }
    if (index < 0) {
      index = data.size();
      data.add(value);
    }
    cob.ldc(
        DynamicConstantDesc.ofNamed(BSM_CLASS_DATA_AT, ConstantDescs.DEFAULT_NAME, type, index));
  }

  private static ClassDesc desc(Class<?> c) {
    return c.describeConstable()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "class "
                        + c.getName()
                        + " has no nominal descriptor, so generated code cannot name it"
                        + " (a hidden class?)"));
  }
}
