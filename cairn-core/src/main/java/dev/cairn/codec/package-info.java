/**
 * Value codecs: how a Java object other than {@code byte[]} or {@code String} becomes bytes in a
 * pile block and back.
 *
 * <p>Owns: the {@link dev.cairn.codec.Codec} SPI, the {@link dev.cairn.codec.CodecRegistry}
 * that maps a stored type id to a codec, and the built-in codecs for the primitive boxes. Must
 * not allocate pile memory or know about pointers: a codec writes into and reads from the region
 * the pile hands it, nothing more.
 */
package dev.cairn.codec;
