package io.memogate.bench.passthrough;

import static io.memogate.bench.targets.TargetKind.DIRECT;
import static io.memogate.bench.targets.TargetKind.HAPROXY;
import static io.memogate.bench.targets.TargetKind.MEMOGATE_BASELINE;
import static io.memogate.bench.targets.TargetKind.MEMOGATE_SHIPPED;
import static io.memogate.bench.targets.TargetKind.PGBOUNCER;
import static io.memogate.bench.targets.TargetKind.PGBOUNCER_TRANSACTION;
import static io.memogate.bench.targets.TargetKind.MEMOGATE_BEHIND_PGBOUNCER;
import static io.memogate.bench.targets.TargetKind.MEMOGATE;
import static io.memogate.bench.targets.TargetKind.MEMOGATE_EPOLL;
import static io.memogate.bench.targets.TargetKind.MEMOGATE_IO_URING;
import static io.memogate.bench.targets.TargetKind.MEMOGATE_GATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.bench.BenchCommand;
import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.targets.TargetKind;
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

    @Test
    void theWholeRunWindowIsKeptOnRequestAndShortRunsAreReadWhole() {
        ParseResult parsed = BenchCommand.commandLine().parseArgs("passthrough", "--window", "WHOLE");
        PassthroughCommand command = (PassthroughCommand) parsed.subcommand().commandSpec().userObject();

        assertThat(command.window).isEqualTo(CountWindow.WHOLE);
        assertThat(CountWindow.STEADY.forRun(7)).isEqualTo(CountWindow.WHOLE);
        assertThat(CountWindow.STEADY.forRun(8)).isEqualTo(CountWindow.STEADY);
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

    /** A target the help leaves out is one a user never learns of. */
    @Test
    void theHelpNamesEveryTarget() {
        StringWriter help = new StringWriter();
        BenchCommand.commandLine().getSubcommands().get("passthrough").usage(new PrintWriter(help));
        String text = help.toString().replaceAll("\\s+", " ");
        for (TargetKind kind : TargetKind.values()) {
            assertThat(text).as("the help of --targets").containsPattern("[ ,]" + kind.label() + "[,; ]");
        }
    }

    @Test
    void severalClientCountsAreOnePassEachAndTheLargestSizesTheServer() {
        ParseResult parsed = BenchCommand.commandLine()
                .parseArgs("passthrough", "--clients", "16,64,256", "--counts", "--targets", "memogate-shipped,pgbouncer");
        PassthroughCommand command = (PassthroughCommand) parsed.subcommand().commandSpec().userObject();

        PassthroughPlan plan = new PassthroughPlan(command.rounds, command.seconds, command.warmupSeconds,
                command.clients, command.threads, command.modes, command.targets, command.scale, Path.of("out"),
                command.counts, command.window);
        assertThat(plan.clients()).containsExactly(16, 64, 256);
        assertThat(plan.window()).isEqualTo(CountWindow.STEADY);
        assertThat(plan.mostClients()).isEqualTo(256);
        assertThat(plan.counts()).isTrue();
        assertThat(plan.load(QueryMode.PREPARED, 64).clients()).isEqualTo(64);
        assertThatThrownBy(() -> new PassthroughPlan(1, 6, 0, List.of(16, 16), 2, List.of(QueryMode.SIMPLE),
                List.of(DIRECT), 10, Path.of("out"))).hasMessageContaining("--clients must name each count once");
        assertThatThrownBy(() -> new PassthroughPlan(1, 6, 0, List.of(16, 63), 2, List.of(QueryMode.SIMPLE),
                List.of(DIRECT), 10, Path.of("out"))).hasMessageContaining("multiple of threads");
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
        assertThat(err.toString()).contains("unknown target 'gated', expected one of direct, memogate-shipped,"
                + " memogate-shipped-one-loop, memogate-shipped-ungated, memogate-baseline, memogate,"
                + " memogate-gated,"
                + " memogate-epoll, memogate-io-uring, memogate-one-loop, memogate-unix, netty-relay, pgbouncer, pgbouncer-unix,"
                + " pgbouncer-transaction, memogate-behind-pgbouncer, haproxy, haproxy-one-thread, haproxy-unix");
    }

    /** The change and the build it starts from, each run by its own bin/memogate in the same rounds. */
    @Test
    void aBaselineCheckoutRunsBesideTheShippedProxy() {
        Path checkout = Path.of("..").toAbsolutePath().normalize(); // this repository: it has a bin/memogate
        ParseResult parsed = BenchCommand.commandLine().parseArgs("passthrough", "--baseline", checkout.toString(),
                "--targets", "direct,memogate-shipped,pgbouncer");
        PassthroughCommand command = (PassthroughCommand) parsed.subcommand().commandSpec().userObject();

        PassthroughPlan plan = new PassthroughPlan(command.rounds, command.seconds, command.warmupSeconds,
                command.clients, command.threads, command.modes, command.targets, command.scale, Path.of("out"),
                command.counts, command.window, command.baselineCheckout());
        assertThat(plan.targets()).containsExactly(DIRECT, MEMOGATE_SHIPPED, MEMOGATE_BASELINE, PGBOUNCER);
        assertThat(plan.baseline()).contains(checkout);
    }

    @Test
    void aBaselineThatCannotRunIsRefusedBeforeAnythingStarts() {
        StringWriter err = new StringWriter();
        CommandLine cli = BenchCommand.commandLine().setErr(new PrintWriter(err));

        assertThat(cli.execute("passthrough", "--baseline", "/nonexistent/memogate")).isEqualTo(2);
        assertThat(err.toString()).contains("--baseline /nonexistent/memogate: no executable bin/memogate there");

        err.getBuffer().setLength(0);
        assertThat(cli.execute("passthrough", "--targets", "memogate-shipped,memogate-baseline")).isEqualTo(2);
        assertThat(err.toString()).contains("--targets memogate-baseline needs --baseline DIR");
    }

    /** pgbench's prepared mode cannot run through a transaction pooler: refused with the modes that can. */
    @Test
    void thePooledDeploymentIsMeasuredInTheModesATransactionPoolerRelays() {
        StringWriter err = new StringWriter();
        CommandLine cli = BenchCommand.commandLine().setErr(new PrintWriter(err));

        assertThat(cli.execute("passthrough", "--targets", "pgbouncer-transaction,memogate-behind-pgbouncer"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--modes prepared cannot run through PgBouncer in transaction mode"
                + " (pgbouncer-transaction, memogate-behind-pgbouncer)", "use --modes simple,extended");

        ParseResult parsed = BenchCommand.commandLine().parseArgs("passthrough", "--clients", "1000", "--modes",
                "simple,extended", "--targets", "pgbouncer-transaction,memogate-behind-pgbouncer");
        PassthroughCommand command = (PassthroughCommand) parsed.subcommand().commandSpec().userObject();
        PassthroughPlan plan = new PassthroughPlan(command.rounds, command.seconds, command.warmupSeconds,
                command.clients, command.threads, command.modes, command.targets, command.scale, Path.of("out"));
        assertThat(plan.targets()).containsExactly(PGBOUNCER_TRANSACTION, MEMOGATE_BEHIND_PGBOUNCER);
        assertThat(plan.mostClients()).isEqualTo(1000);
    }
}
