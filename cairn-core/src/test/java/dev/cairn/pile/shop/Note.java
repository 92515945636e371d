package dev.cairn.pile.shop;

/**
 * A class of the package that nothing else refers to: only a package rule can allow it, so a read
 * of it after a restart must find it by its stored name.
 */
public record Note(String text, Object attachment) {}
