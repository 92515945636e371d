/**
 * {@code cairn bench --workload cache}: Cairn's cache against the stores users pick instead
 * (ConcurrentHashMap, Caffeine, Chronicle Map, Ehcache's off-heap tier), each in a JVM of its own.
 *
 * <p>{@link dev.cairn.bench.cache.CacheBench} runs the children and collects their figures into a
 * {@link dev.cairn.bench.cache.CacheBenchReport}; {@code CacheBenchChild} runs one store through
 * {@code CachePhases} (load, 90/10 mixes, bounded); {@code RestartProbe} is the new JVM of a
 * restart. Each peer sits behind {@code CacheStore}, used as its own users use it. The peers are
 * dependencies of this module only, never of the cache or the command line.
 */
package dev.cairn.bench.cache;
