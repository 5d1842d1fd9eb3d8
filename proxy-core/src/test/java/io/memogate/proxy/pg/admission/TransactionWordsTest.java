package io.memogate.proxy.pg.admission;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The first word of a statement, as the session reads it to see whether it may open or end a transaction. */
class TransactionWordsTest {

    /** In any case, after comments and space. */
    @ParameterizedTest
    @ValueSource(strings = {"BEGIN", "  /* tag */ Commit;", "-- app\nstart transaction", "end",
            "ROLLBACK TO SAVEPOINT s", "Abort"})
    void theWordsThatOpenOrEndATransaction(String sql) {
        assertThat(TransactionWords.mayOpenOrEnd(sql)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT abalance FROM pgbench_accounts WHERE aid = 1", "beginning", "ended_at", "",
            "  /* only a comment */ "})
    void otherStatementsWordsThatOnlyBeginAsThoseAndNoWordAtAll(String sql) {
        assertThat(TransactionWords.mayOpenOrEnd(sql)).isFalse();
    }
}
