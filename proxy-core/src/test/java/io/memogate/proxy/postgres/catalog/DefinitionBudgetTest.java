package io.memogate.proxy.postgres.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DefinitionBudgetTest {

    @Test
    void keepsShortestFirstUpToTheBoundAndCountsTheRest() {
        DefinitionBudget budget = new DefinitionBudget();
        assertThat(budget.keeps(null)).isFalse();
        assertThat(budget.keeps("x".repeat((int) DefinitionBudget.MAX_CHARS - 1))).isTrue();
        assertThat(budget.keeps("yy")).isFalse();
        assertThat(budget.keeps("z")).isTrue();
        assertThat(budget.leftOut()).isEqualTo(1);
    }

    /** The catalog is read again every 5 minutes: the same over-budget warning is logged once, not each time. */
    @Test
    void theSameWarningIsGivenOnceUntilTheCountChanges() {
        AtomicInteger warnings = new AtomicInteger();
        String key = "warehouse/views " + System.nanoTime();
        DefinitionBudget.warnOnce(key, 3, warnings::incrementAndGet);
        DefinitionBudget.warnOnce(key, 3, warnings::incrementAndGet);
        assertThat(warnings).hasValue(1);
        DefinitionBudget.warnOnce(key, 4, warnings::incrementAndGet);
        assertThat(warnings).hasValue(2);
        DefinitionBudget.warnOnce(key, 0, warnings::incrementAndGet);
        DefinitionBudget.warnOnce(key, 4, warnings::incrementAndGet);
        assertThat(warnings).as("within the bound, then over it again").hasValue(3);
    }
}
