package io.memogate.proxy.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.memogate.proxy.session.OperatorCommand.Action;
import io.memogate.proxy.session.OperatorCommand.Addressee;

class OperatorCommandTest {

    private final List<String> terminatedBy = new ArrayList<>();
    private int cancels;

    private Optional<String> carryOut(OperatorCommand command, Addressee session) {
        return command.carryOut(session, terminatedBy::add, () -> {
            cancels++;
            return "withdrew it";
        });
    }

    private static OperatorCommand command(Action action, int serverPid, String backend) {
        return new OperatorCommand(action, serverPid, Optional.ofNullable(backend), "dba from 10.0.0.9:40112");
    }

    @Test
    void killEndsTheSessionItNamesAndSaysWhoAsked() {
        Optional<String> outcome = carryOut(command(Action.KILL, 4711, null),
                new Addressee("main", 4711, false, "alice@shop"));

        assertThat(outcome).hasValue("terminated the session of alice@shop");
        assertThat(terminatedBy).containsExactly("dba from 10.0.0.9:40112");
    }

    @Test
    void cancelReportsWhatTheWingDid() {
        assertThat(carryOut(command(Action.CANCEL, 4711, "main"), new Addressee("main", 4711, false, "alice@shop")))
                .hasValue("withdrew it");
        assertThat(cancels).isOne();
        assertThat(terminatedBy).isEmpty();
    }

    @Test
    void findNamesTheBackendAndTouchesNothing() {
        assertThat(carryOut(command(Action.FIND, 4711, null), new Addressee("replica", 4711, false, "alice@shop")))
                .hasValue("replica");
        assertThat(terminatedBy).isEmpty();
        assertThat(cancels).isZero();
    }

    @Test
    void anotherServerIdAnotherBackendAnEndedSessionOrNoIdYetAreNotNamed() {
        OperatorCommand kill = command(Action.KILL, 4711, "main");

        assertThat(carryOut(kill, new Addressee("main", 4712, false, "a"))).isEmpty();
        assertThat(carryOut(kill, new Addressee("replica", 4711, false, "a"))).isEmpty();
        assertThat(carryOut(kill, new Addressee("main", 4711, true, "a"))).isEmpty();
        assertThat(carryOut(command(Action.KILL, 0, null), new Addressee("main", 0, false, "a"))).isEmpty();
        assertThat(terminatedBy).isEmpty();
    }

    @Test
    void aThreadIdAboveTheSignedRangeMatchesAsTheUnsignedNumberMySqlShows() {
        long threadId = 3_000_000_000L;

        assertThat(carryOut(command(Action.FIND, (int) threadId, null), new Addressee("main", threadId, false, "a")))
                .hasValue("main");
    }
}
