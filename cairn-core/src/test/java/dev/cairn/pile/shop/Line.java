package dev.cairn.pile.shop;

/** A line of an {@link Order}. */
public record Line(String sku, int quantity) {}
