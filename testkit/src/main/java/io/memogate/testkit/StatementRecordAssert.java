package io.memogate.testkit;

import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.admission.StatementRecord;
import io.memogate.proxy.admission.StatementRecord.Outcome;
import java.util.Locale;
import org.assertj.core.api.AbstractAssert;

/** Assertions about one recorded statement; see {@link MemogateAssertions}. */
public final class StatementRecordAssert extends AbstractAssert<StatementRecordAssert, StatementRecord> {

    StatementRecordAssert(StatementRecord actual) {
        super(actual, StatementRecordAssert.class);
    }

    /** Its highest gateway was {@code tier}: admitted there, or refused by that tier's queue. */
    public StatementRecordAssert tookTier(Tier tier) {
        isNotNull();
        if (!actual.highestTier().filter(tier::equals).isPresent()) {
            failWithMessage("Expected the statement to take the %s gateway, but it was%n  %s", tier, actual.describe());
        }
        return this;
    }

    /** It needed no tier above {@code tier}. */
    public StatementRecordAssert tookAtMost(Tier tier) {
        isNotNull();
        if (actual.highestTier().filter(held -> held.compareTo(tier) > 0).isPresent()) {
            failWithMessage("Expected the statement to need no gateway above %s, but it was%n  %s", tier,
                    actual.describe());
        }
        return this;
    }

    /** It bypassed admission: not planned, or naming at most one relation. */
    public StatementRecordAssert bypassed() {
        return hasOutcome(Outcome.BYPASSED);
    }

    /** A gateway refused it. */
    public StatementRecordAssert refused() {
        return hasOutcome(Outcome.REFUSED);
    }

    /** A gateway admitted it, at once or after waiting. */
    public StatementRecordAssert admitted() {
        return hasOutcome(Outcome.ADMITTED);
    }

    /** It waited in a gateway's queue. */
    public StatementRecordAssert waited() {
        isNotNull();
        if (!actual.waited()) {
            failWithMessage("Expected the statement to have waited in a gateway's queue, but it was%n  %s",
                    actual.describe());
        }
        return this;
    }

    public StatementRecordAssert hasOutcome(Outcome outcome) {
        isNotNull();
        if (actual.outcome() != outcome) {
            failWithMessage("Expected the statement to be %s, but it was%n  %s",
                    outcome.name().toLowerCase(Locale.ROOT).replace('_', ' '), actual.describe());
        }
        return this;
    }

    /** Its fingerprint (constants replaced by {@code ?}) contains {@code text}, any case. */
    public StatementRecordAssert hasFingerprintContaining(String text) {
        isNotNull();
        if (!actual.fingerprint().toLowerCase(Locale.ROOT).contains(text.toLowerCase(Locale.ROOT))) {
            failWithMessage("Expected the statement's fingerprint to contain %s, but it was%n  %s", text,
                    actual.describe());
        }
        return this;
    }
}
