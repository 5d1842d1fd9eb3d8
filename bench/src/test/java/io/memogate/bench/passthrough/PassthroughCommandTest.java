package io.memogate.bench.passthrough;

import static io.memogate.bench.targets.TargetKind.DIRECT;
import static io.memogate.bench.targets.TargetKind.HAPROXY;
import static io.memogate.bench.targets.TargetKind.MEMOGATE_SHIPPED;
import static io.memogate.bench.targets.TargetKind.PGBOUNCER;
import static io.memogate.bench.targets.TargetKind.MEMOGATE;
import static io.memogate.bench.targets.TargetKind.MEMOGATE_EPOLL;
import static io.memogate.bench.targets.TargetKind.MEMOGATE_IO_URING;
import static io.memogate.bench.targets.TargetKind.MEMOGATE_GATED;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.bench.BenchCommand;
import io.memogate.bench.pgbench.QueryMode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** The command line of `bench passthrough`, parsed only: nothing is started. */
class PassthroughCommandTest {

    @Test
    void gatewaysOnAgainstOffNeedsNoDirectTarget() {
        ParseResult parsed = BenchCommand.commandLine()
                .parseArgs("passthrough", "--targets", "memogate,MEMOGATE-Gated", "--rounds", "5");
        PassthroughCommand command = (PassthroughCommand) parsed.subcommand().commandSpec().userObject();

        assertThat(command.targets).containsExactly(MEMOGATE, MEMOGATE_GATED);
        PassthroughPlan plan = new PassthroughPlan(command.rounds, command.seconds, command.warmupSeconds,
                command.clients, command.threads, List.of(QueryMode.SIMPLE), command.targets, command.scale, Path.of("out"));
        assertThat(plan.targets()).containsExactly(MEMOGATE, MEMOGATE_GATED);
    }

    /** Both spellings of the transport: the bench's label and network.transport's word. */
    @Test
    void theTwoTransportsAreTargetsOfTheirOwn() {
        ParseResult parsed = BenchCommand.commandLine()
                .parseArgs("passthrough", "--targets", "direct,memogate-epoll,memogate-io_uring,MEMOGATE-IO-URING");
        PassthroughCommand command = (PassthroughCommand) parsed.subcommand().commandSpec().userObject();

        assertThat(command.targets).containsExactly(DIRECT, MEMOGATE_EPOLL, MEMOGATE_IO_URING, MEMOGATE_IO_URING);
        assertThat(MEMOGATE_IO_URING.label()).isEqualTo("memogate-io-uring");
    }

    @Test
    void theShippedProxyIsTheDefaultMemogateTarget() {
        ParseResult parsed = BenchCommand.commandLine().parseArgs("passthrough");
        PassthroughCommand command = (PassthroughCommand) parsed.subcommand().commandSpec().userObject();

        assertThat(command.targets).containsExactly(DIRECT, MEMOGATE_SHIPPED, PGBOUNCER, HAPROXY);
    }

    @Test
    void anUnknownTargetIsRefusedWithTheNamesThatExist() {
        StringWriter err = new StringWriter();
        CommandLine cli = BenchCommand.commandLine().setErr(new PrintWriter(err));

        int exit = cli.execute("passthrough", "--targets", "memogate,gated");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("unknown target 'gated', expected one of direct, memogate-shipped, memogate,"
                + " memogate-gated,"
                + " memogate-epoll, memogate-io-uring, memogate-one-loop, memogate-unix, pgbouncer, pgbouncer-unix,"
                + " haproxy, haproxy-one-thread, haproxy-unix");
    }
}
