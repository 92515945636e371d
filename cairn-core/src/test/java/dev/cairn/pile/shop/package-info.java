/** Domain classes for tests of allow rules: what a user's model package looks like. */
package dev.cairn.pile.shop;
