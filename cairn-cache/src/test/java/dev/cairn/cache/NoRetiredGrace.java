package dev.cairn.cache;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For tests whose figures depend on the room a budget leaves: retired index regions are freed at
 * once instead of after {@link CacheCore#RETIRED_GRACE_NANOS}, so that the bytes they hold, and so
 * what fits and what is evicted, do not depend on how long the test took. Only for tests with no
 * concurrent reader, which the grace protects.
 */
final class NoRetiredGrace implements BeforeEachCallback, AfterEachCallback {
  @Override
  public void beforeEach(ExtensionContext context) {
    CacheCore.retiredGraceNanos = 0;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    CacheCore.retiredGraceNanos = CacheCore.RETIRED_GRACE_NANOS;
  }
}
