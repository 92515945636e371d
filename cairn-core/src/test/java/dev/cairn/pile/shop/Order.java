package dev.cairn.pile.shop;

import java.util.List;

/**
 * An order, as a user's domain class would be: a record in a package of its own, so tests can allow
 * it by class or by package.
 */
public record Order(long id, String customer, List<Line> lines, Status status) {}
