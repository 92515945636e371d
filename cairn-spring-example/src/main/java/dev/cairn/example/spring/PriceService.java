package dev.cairn.example.spring;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

/**
 * A slow lookup worth caching: the price of a product, computed once and then served from the cache
 * until the product changes.
 *
 * <p>Thread-safety: safe from any thread.
 */
@Service
public class PriceService {
  private final AtomicInteger computations = new AtomicInteger();

  /** The price of {@code product}: computed on a miss, from the cache on a hit. */
  @Cacheable(PriceApplication.PRICES)
  public long priceOf(String product) {
    computations.incrementAndGet();
    return 100L * product.length() + product.chars().sum();
  }

  /** {@code product} changed: its cached price goes. */
  @CacheEvict(PriceApplication.PRICES)
  public void changed(String product) {
    // the annotation does the work
  }

  /** How many prices this service computed (its cache's misses). */
  public int computations() {
    return computations.get();
  }
}
