/**
 * {@code cairn demo}: the cache's headline in one command. It loads a persistent cache in a child
 * JVM, kills that JVM with SIGKILL, opens the cache in a new JVM and times its first hit, and sets
 * beside it what the usual choices (Caffeine, a ConcurrentHashMap) hold after a restart.
 *
 * <p>Owns: the command ({@link dev.cairn.bench.demo.DemoCommand}), the two child JVMs' mains
 * ({@code DemoLoad}, {@code DemoRestart}) and their one-line protocol on stdout. Must not reach
 * into the cache's internals: it uses the public API, as a user would. Peers are benchmark
 * dependencies of this module only.
 */
package dev.cairn.bench.demo;
