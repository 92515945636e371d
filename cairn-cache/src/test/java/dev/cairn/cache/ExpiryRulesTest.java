package dev.cairn.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.cache.index.SlotLayout;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The expiry arithmetic a table applies ({@link ExpiryRules}), on fixed times. */
class ExpiryRulesTest {
  private static final long EPOCH = 1_700_000_000_000L;

  private static ExpiryRules rules(Duration afterWrite, Duration afterAccess) {
    TableOptions.Builder b = TableOptions.builder();
    if (afterWrite != null) {
      b.expireAfterWrite(afterWrite);
    }
    if (afterAccess != null) {
      b.expireAfterAccess(afterAccess);
    }
    return new ExpiryRules(EPOCH, b.build());
  }

  private static long meta(int hint) {
    return SlotLayout.withExpiry(0, hint);
  }

  @Test
  void anEntryExpiresByItsOwnOptionsFirst_thenByTheTablesTimeToLive() {
    ExpiryRules r = rules(Duration.ofSeconds(10), null);
    long now = EPOCH + 5_000;
    assertThat(r.expireAt(null, now)).isEqualTo(now + 10_000);
    assertThat(r.expireAt(EntryOptions.expireAfter(Duration.ofSeconds(3)), now))
        .isEqualTo(now + 3_000);
    assertThat(r.expireAt(EntryOptions.expireAt(Instant.ofEpochMilli(EPOCH + 42)), now))
        .isEqualTo(EPOCH + 42);
    assertThat(rules(null, null).expireAt(null, now)).as("no time-to-live: never").isZero();
  }

  @Test
  void aDurationTooLongForALong_isNever_notAMomentInThePast() {
    ExpiryRules r = rules(null, null);
    long at = r.expireAt(EntryOptions.expireAfter(Duration.ofSeconds(Long.MAX_VALUE)), EPOCH);
    assertThat(at).isEqualTo(Long.MAX_VALUE);
    assertThat(r.hintSeconds(at, EPOCH)).as("never: no hint").isZero();
  }

  @Test
  void theHintRoundsUp_soThatItNeverSaysExpiredBeforeTheEntryIs() {
    ExpiryRules r = rules(null, null);
    assertThat(r.hintSeconds(EPOCH + 1, EPOCH)).isEqualTo(1);
    assertThat(r.hintSeconds(EPOCH + 1_000, EPOCH)).isEqualTo(1);
    assertThat(r.hintSeconds(EPOCH + 1_001, EPOCH)).isEqualTo(2);
    assertThat(r.hintSeconds(EPOCH - 5_000, EPOCH)).as("already past: the first second").isOne();
    long expireAt = EPOCH + 1_001;
    long hint = meta(r.hintSeconds(expireAt, EPOCH));
    assertThat(r.hintPassed(hint, expireAt - 1)).isFalse();
    assertThat(r.hintPassed(hint, EPOCH + 2_000)).isTrue();
    assertThat(r.hintMillis(hint)).isEqualTo(EPOCH + 2_000).isGreaterThanOrEqualTo(expireAt);
  }

  @Test
  void aTimePastTheHintsReach_isFar_andNeverPassesByTheHint() {
    ExpiryRules r = rules(null, null);
    long far = EPOCH + (SlotLayout.EXPIRY_FAR + 10L) * 1000L;
    assertThat(r.hintSeconds(far, EPOCH)).isEqualTo(SlotLayout.EXPIRY_FAR);
    long hint = meta(SlotLayout.EXPIRY_FAR);
    assertThat(ExpiryRules.hasHint(hint)).isFalse();
    assertThat(r.hintPassed(hint, Long.MAX_VALUE - 1)).isFalse();
    assertThat(r.hintMillis(hint)).isEqualTo(Long.MAX_VALUE);
    assertThat(r.hintMillis(meta(0))).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void withATimeToIdle_theHintIsTheEarlierOfTheEntrysTimeAndNowPlusTheIdleTime() {
    ExpiryRules r = rules(null, Duration.ofSeconds(30));
    assertThat(r.expiresAfterAccess()).isTrue();
    long now = EPOCH + 100_000;
    assertThat(r.hintSeconds(0, now)).as("no time of its own").isEqualTo(130);
    assertThat(r.hintSeconds(EPOCH + 110_000, now)).as("its own is earlier").isEqualTo(110);
    assertThat(r.hintSeconds(EPOCH + 500_000, now)).as("idle is earlier").isEqualTo(130);
  }

  @Test
  void newOptionsReplaceTheDurations() {
    ExpiryRules r = rules(Duration.ofSeconds(10), Duration.ofSeconds(5));
    r.use(TableOptions.builder().build());
    assertThat(r.expiresAfterAccess()).isFalse();
    assertThat(r.expireAt(null, EPOCH)).isZero();
  }

  @Test
  void aMaximumAgeMustNotBeNegative_andAHugeOneSaturates() {
    assertThat(ExpiryRules.maxAgeMillis(Duration.ofMillis(1_500))).isEqualTo(1_500);
    assertThat(ExpiryRules.maxAgeMillis(Duration.ofSeconds(Long.MAX_VALUE)))
        .isEqualTo(Long.MAX_VALUE);
    assertThatThrownBy(() -> ExpiryRules.maxAgeMillis(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxAge must not be negative");
    assertThatThrownBy(() -> ExpiryRules.maxAgeMillis(null))
        .isInstanceOf(NullPointerException.class);
  }
}
