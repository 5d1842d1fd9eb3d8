package io.memogate.broker.probe.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.net.ConnectException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class JdbcFailuresTest {

    @Test
    void aSocketFactorysFailureIsNamedAfterPgjdbcsVagueMessage() {
        SQLException failure = new SQLException("The connection attempt failed.", "08001",
                new FileNotFoundException("/run/postgresql/.s.PGSQL.5432"));
        assertThat(JdbcFailures.message(failure))
                .isEqualTo("The connection attempt failed. (/run/postgresql/.s.PGSQL.5432)");
    }

    @Test
    void aCauseThePgjdbcMessageAlreadyHoldsIsNotRepeated() {
        SQLException failure = new SQLException("Connection to 127.0.0.1:5 refused. Check that the hostname and port"
                + " are correct: Connection refused", "08001", new ConnectException("Connection refused"));
        assertThat(JdbcFailures.message(failure)).isEqualTo(failure.getMessage());
    }

    @Test
    void aFailureWithoutCauseOrWithASilentOneIsPgjdbcsMessage() {
        assertThat(JdbcFailures.message(new SQLException("password authentication failed for user \"x\"")))
                .isEqualTo("password authentication failed for user \"x\"");
        assertThat(JdbcFailures.message(new SQLException("The connection attempt failed.", new ConnectException())))
                .isEqualTo("The connection attempt failed.");
    }
}
