package io.memogate.testkit;

import static io.memogate.testkit.MemogateAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.CompileEstimate;
import io.memogate.proxy.admission.StatementRecord;
import io.memogate.proxy.admission.StatementRecord.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What a team reads when its build fails on a statement's tier: which statement (fingerprint), how big its
 * estimate was and which gateway it took; and that the filters pick the statements they name.
 */
class StatementsAssertTest {

    private static final StatementRecord LOOKUP = record("select * from sales where id = ?", 0, Outcome.BYPASSED, null);
    private static final StatementRecord DAILY = record("select ... daily ...", 3 << 20, Outcome.ADMITTED, Tier.MEDIUM);
    private static final StatementRecord MONTHLY = record("select ... monthly ...", 9 << 20, Outcome.ADMITTED, Tier.LARGE);
    private static final Statements SEEN = new Statements(List.of(LOOKUP, DAILY, MONTHLY), 0);

    private static StatementRecord record(String fingerprint, long bytes, Outcome outcome, Tier tier) {
        CompileEstimate estimate = CompileEstimate.builder(fingerprint, fingerprint.hashCode(), bytes == 0 ? 1 : 16)
                .estimatedBytes(bytes).memoPairs(bytes / 2400).bypass(outcome == Outcome.BYPASSED).build();
        return new StatementRecord("target", "sales", "app", estimate, outcome, Optional.ofNullable(tier),
                Optional.empty(), Optional.empty());
    }

    @Test
    void noneAboveNamesEachStatementThatNeededMoreWithItsEstimate() {
        assertThatThrownBy(() -> assertThat(SEEN).noneAbove(Tier.SMALL)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expected no statement above the SMALL gateway, but found 2:")
                .hasMessageContaining("ADMITTED MEDIUM, 3072 kB (16 relations, 1310 join pairs): select ... daily ...")
                .hasMessageContaining("ADMITTED LARGE, 9216 kB").hasMessageContaining("monthly")
                .hasMessageNotContaining("sales where id");
        assertThat(SEEN).noneAbove(Tier.LARGE);
    }

    @Test
    void theLargestIsTheStatementWithTheBiggestEstimate() {
        assertThat(SEEN.largest()).tookTier(Tier.LARGE).admitted();
        assertThatThrownBy(() -> assertThat(SEEN.largest()).tookTier(Tier.MEDIUM)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expected the statement to take the MEDIUM gateway, but it was")
                .hasMessageContaining("ADMITTED LARGE, 9216 kB (16 relations, 3932 join pairs): select ... monthly ...");
        assertThatThrownBy(() -> new Statements(List.of(), 3).largest()).isInstanceOf(NoSuchElementException.class)
                .hasMessage("Memogate recorded no statement (3 older statements were no longer remembered)");
    }

    @Test
    void filtersPickTheStatementsTheyName() {
        assertThat(SEEN.matching("SALES WHERE").list()).containsExactly(LOOKUP);
        assertThat(SEEN.tookTier(Tier.MEDIUM).list()).containsExactly(DAILY);
        assertThat(SEEN.above(Tier.SMALL).list()).containsExactly(DAILY, MONTHLY);
        assertThat(SEEN.bypassed().list()).containsExactly(LOOKUP);
        assertThat(SEEN.refused().isEmpty()).isTrue();
        assertThat(SEEN.matching("sales where")).allBypassed();
    }

    @Test
    void anAssertionOverNoStatementsFailsRatherThanPassingUnnoticed() {
        assertThatThrownBy(() -> assertThat(SEEN.matching("no such table")).allBypassed())
                .isInstanceOf(AssertionError.class)
                .hasMessage("Expected Memogate to have seen statements, but it recorded none");
    }

    @Test
    void aRefusedStatementSaysWhichQueueRefusedItAndHowLongItWaited() {
        StatementRecord refused = new StatementRecord("target", "sales", "app", MONTHLY.estimate(), Outcome.REFUSED,
                Optional.of(Tier.LARGE), Optional.of(Duration.ofSeconds(8)), Optional.of(new StatementRecord.Refusal(
                        GatewayRejectedException.Reason.TIMEOUT, "LARGE gateway: waited 8.0 s, estimate 9216 kB")));

        assertThatThrownBy(() -> assertThat(new Statements(List.of(refused), 0)).noneRefused())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("REFUSED LARGE, 9216 kB (16 relations, 3932 join pairs), waited 8.0 s, "
                        + "refused: LARGE gateway: waited 8.0 s, estimate 9216 kB: select ... monthly ...");
        assertThat(refused).refused().waited().tookAtMost(Tier.LARGE);
    }
}
