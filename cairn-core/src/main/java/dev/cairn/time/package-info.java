/**
 * Reading the wall clock cheaply: {@link dev.cairn.time.CoarseClock}, for a time that may lag the
 * clock by a kernel tick but never leads it. Internal to Cairn (exported to the cache only).
 */
package dev.cairn.time;
