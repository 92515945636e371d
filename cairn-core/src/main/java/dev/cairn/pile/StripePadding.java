package dev.cairn.pile;

/**
 * 128 bytes of padding before a {@link Stripe}'s fields: a superclass's fields come first in an
 * object, so the stripe's fields, which the thread working in that stripe writes on every put,
 * never share a cache line with the end of whatever object lies before it in the heap (another
 * stripe's, written by another thread). See Stripe's implementation note, Layout.
 */
abstract class StripePadding {
  @SuppressWarnings("unused")
  private long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
}
