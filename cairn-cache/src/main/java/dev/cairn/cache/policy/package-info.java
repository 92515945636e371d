/**
 * The eviction policy: which entry leaves when the budget is exceeded, and whether a new one is
 * admitted.
 *
 * <p>Owns: the frequency sketch and the meaning of the policy bits of a slot. Must not touch the
 * pile: it sees entries only as slots of the index.
 */
package dev.cairn.cache.policy;
