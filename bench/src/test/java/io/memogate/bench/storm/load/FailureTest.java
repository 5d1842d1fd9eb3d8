package io.memogate.bench.storm.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLWarning;
import org.junit.jupiter.api.Test;

class FailureTest {

    @Test
    void aBrokenSocketWithoutWarningIsTheKilledBackend() {
        Failure failure = Failure.of(new SQLException("An I/O error occurred while sending to the backend.", "08006"), null);

        assertThat(failure.kind()).isEqualTo(ErrorKind.SERVER_MEMORY_KILL);
    }

    @Test
    void aBrokenSocketAfterTheCrashWarningIsASessionLostToTheRestart() {
        SQLWarning warning = new SQLWarning("terminating connection because of crash of another server process", "57P02");

        Failure failure = Failure.of(new SQLException("An I/O error occurred while sending to the backend.", "08006"),
                warning);

        assertThat(failure).isEqualTo(new Failure(ErrorKind.RESTART, "57P02",
                "terminating connection because of crash of another server process"));
    }

    @Test
    void otherKinds() {
        assertThat(Failure.of(new SQLException("the database system is in recovery mode", "57P03"), null).kind())
                .isEqualTo(ErrorKind.RESTART);
        assertThat(Failure.of(new SQLException("statement refused by the MEDIUM gateway", "53000"), null).kind())
                .isEqualTo(ErrorKind.GATEWAY_TIMEOUT);
        assertThat(Failure.of(new SQLException("syntax error", "42601"), new SQLWarning("x", "01000")).kind())
                .isEqualTo(ErrorKind.OTHER);
        assertThat(Failure.of(new SQLException("no state"), null).kind()).isEqualTo(ErrorKind.OTHER);
    }
}
