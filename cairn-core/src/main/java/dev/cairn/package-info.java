/**
 * What every other Cairn package shares: {@link dev.cairn.CairnException}, the root of Cairn's
 * exceptions.
 *
 * <p>Owns nothing else. Must not import any other Cairn package, so that every package may import
 * this one without a cycle.
 */
package dev.cairn;
