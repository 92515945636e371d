/**
 * Value codecs: how a Java object other than {@code byte[]} or {@code String} becomes bytes in a
 * pile block and back.
 *
 * <p>Owns: the {@link dev.cairn.codec.Codec} SPI, the {@link dev.cairn.codec.CodecRegistry} that
 * maps a stored type id to a codec, the built-in codecs for the primitive boxes, and the public
 * face of the object codec: allow rules, {@link dev.cairn.codec.TypeSchema}, {@link
 * dev.cairn.codec.TypeCatalog} (the seam through which schemas live with the data) and {@link
 * dev.cairn.codec.CairnName}. The object codec itself lives in {@code dev.cairn.codec.object}. Must
 * not allocate pile memory or know about pointers: a codec writes into and reads from the region
 * the pile hands it, nothing more. {@code CodecRegistry} is the one class here that uses {@code
 * dev.cairn.codec.object}; the rest is what that package builds on, and must not use it.
 */
package dev.cairn.codec;
