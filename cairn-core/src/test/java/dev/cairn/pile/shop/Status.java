package dev.cairn.pile.shop;

/** Where an {@link Order} stands. */
public enum Status {
  OPEN,
  PAID,
  SHIPPED
}
