/**
 * JMH microbenchmarks of the Pile's single operations, with a {@code ConcurrentHashMap} baseline
 * for the ratios.
 *
 * <p>Owns: benchmark classes and their state; each benchmark's javadoc says what question it
 * answers. Must not hold logic the product needs (that lives in cairn-core), and must not be run by
 * {@code mvn test}: it has no tests, and CI does not run benchmarks.
 */
package dev.cairn.bench.jmh;
