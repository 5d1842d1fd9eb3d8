package io.memogate.testkit;

import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.admission.StatementRecord;
import io.memogate.proxy.admission.StatementRecord.Outcome;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/** Assertions about a set of recorded statements; see {@link MemogateAssertions}. */
public final class StatementsAssert extends AbstractAssert<StatementsAssert, Statements> {

    StatementsAssert(Statements actual) {
        super(actual, StatementsAssert.class);
    }

    /** No statement needed a tier above {@code tier}: a build fails when a change makes a query need LARGE. */
    public StatementsAssert noneAbove(Tier tier) {
        isNotNull();
        return none(actual.above(tier), "above the " + tier + " gateway");
    }

    /** No statement was refused by a gateway. */
    public StatementsAssert noneRefused() {
        isNotNull();
        return none(actual.refused(), "refused");
    }

    /** No statement waited in a gateway's queue. */
    public StatementsAssert noneWaited() {
        isNotNull();
        return none(actual.waited(), "that waited in a gateway's queue");
    }

    /** At least one statement's highest gateway was {@code tier}. */
    public StatementsAssert someTookTier(Tier tier) {
        isNotNull();
        if (actual.tookTier(tier).isEmpty()) {
            failWithMessage("Expected a statement that took the %s gateway, but none did; Memogate saw:%s%s",
                    tier, Statements.describe(actual.list()), actual.droppedNote());
        }
        return this;
    }

    /** Every statement bypassed admission: it is not planned, or names at most one relation. */
    public StatementsAssert allBypassed() {
        isNotEmpty();
        return none(actual.filter(record -> record.outcome() != Outcome.BYPASSED), "that did not bypass admission");
    }

    /** Memogate saw at least one statement (a filter that matched nothing would make the others pass). */
    public StatementsAssert isNotEmpty() {
        isNotNull();
        if (actual.isEmpty()) {
            failWithMessage("Expected Memogate to have seen statements, but it recorded none%s", actual.droppedNote());
        }
        return this;
    }

    public StatementsAssert hasSize(int expected) {
        isNotNull();
        if (actual.size() != expected) {
            failWithMessage("Expected %d statements, but Memogate saw %d:%s", expected, actual.size(),
                    Statements.describe(actual.list()));
        }
        return this;
    }

    private StatementsAssert none(Statements offending, String what) {
        List<StatementRecord> found = offending.list();
        if (!found.isEmpty()) {
            failWithMessage("Expected no statement %s, but found %d:%s", what, found.size(),
                    Statements.describe(found));
        }
        return this;
    }
}
