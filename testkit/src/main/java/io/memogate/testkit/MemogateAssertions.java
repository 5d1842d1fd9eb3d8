package io.memogate.testkit;

import io.memogate.proxy.admission.StatementRecord;

/**
 * AssertJ entry points for what Memogate's admission did with a test's statements:
 * <pre>{@code
 * assertThat(memogate.statements()).noneAbove(Tier.MEDIUM);
 * assertThat(memogate.statements().largest()).tookTier(Tier.LARGE);
 * assertThat(memogate.statements().matching("from orders where id")).allBypassed();
 * }</pre>
 * A failure names each offending statement: outcome, tier, estimate and fingerprint.
 */
public final class MemogateAssertions {

    private MemogateAssertions() {
    }

    public static StatementsAssert assertThat(Statements statements) {
        return new StatementsAssert(statements);
    }

    public static StatementRecordAssert assertThat(StatementRecord statement) {
        return new StatementRecordAssert(statement);
    }
}
