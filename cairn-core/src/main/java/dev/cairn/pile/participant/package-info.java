/**
 * Participants: durable structures outside {@code dev.cairn.pile} that share a persistent pile's
 * write-ahead log, checkpoints and recovery, so that their state changes atomically with the pile's
 * values (the cache's index is one).
 *
 * <p>Owns: the contract between a participant and the pile ({@link
 * dev.cairn.pile.participant.LogParticipant}, {@link dev.cairn.pile.participant.ParticipantLog},
 * {@link dev.cairn.pile.participant.Attachment}, {@link dev.cairn.pile.participant.PayloadWriter}:
 * values whose bytes a participant composes, and regions it writes in place) and the way in ({@link
 * dev.cairn.pile.participant.Participants}). Exported only to Cairn's own modules: it is not user
 * API, and may change with them.
 *
 * <p>Must not hold any of the pile's mechanism: the implementation stays in {@code dev.cairn.pile},
 * reached through {@link dev.cairn.pile.participant.PileAccess}.
 */
package dev.cairn.pile.participant;
