package dev.cairn.codec;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The stored name of a class, record component, field or enum constant, and the older names it
 * answers to. Stored objects refer to types and fields by these names (through their schema), never
 * by Java name alone, so an annotation is all a rename needs.
 *
 * <p>By default a type is stored under its binary class name ({@link Class#getName()}) and a field
 * or enum constant under its Java name.
 *
 * <ul>
 *   <li>{@code @CairnName("acme.Person")} fixes the stored name: the class can then move to another
 *       package, or be renamed, without any change to what is stored.
 *   <li>{@code @CairnName(aliases = "mail")} on a field renamed from {@code mail} to {@code email}:
 *       new objects store {@code email}; objects stored as {@code mail} are read into it.
 * </ul>
 *
 * {@snippet class=dev.cairn.pile.ApiExamplesTest region=cairn-name}
 *
 * <p>A name must be non-empty and may not contain {@code <}, {@code >}, {@code ,} or whitespace.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface CairnName {
  /** The stored name; empty means the Java name (binary class name for a type). */
  String value() default "";

  /** Earlier stored names, accepted when reading older objects. */
  String[] aliases() default {};
}
