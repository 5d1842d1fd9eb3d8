package io.memogate.proxy.it;

import static io.memogate.proxy.it.ConsoleClient.failure;
import static io.memogate.proxy.it.ConsoleClient.row;
import static io.memogate.proxy.it.ConsoleClient.rows;
import static io.memogate.proxy.it.ConsoleClient.values;
import static io.memogate.proxy.it.StarSchema.WIDE;
import static io.memogate.proxy.it.StarSchema.star;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.testing.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.util.PSQLException;

/**
 * The console's SHOW STATEMENTS against the real proxy in front of PostgreSQL 18, started from a configuration
 * file as {@code memogate run} starts it: with {@code admission.statementRecords} set, each statement a client
 * sent is a row saying what admission decided (bypassed, admitted in SMALL, refused with the reason) and on
 * what estimate; off by default, where the console says how to turn them on; a RELOAD turns them on, bounds
 * them (the forgotten ones are counted) and off again.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class ShowStatementsIT {

    private static final String ADMIN = TestUsers.SCRAM_USER;
    private static final String PASSWORD = TestUsers.SCRAM_PASSWORD;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /**
     * One SMALL permit and no queue, so that a second statement in SMALL is refused at once; {@code records}
     * (when not null) as {@code admission.statementRecords}.
     */
    private Path write(EmbeddedPostgres pg, Integer records) throws IOException {
        return Files.writeString(dir.resolve("memogate.yaml"), """
                listeners:
                  - { host: 127.0.0.1, port: 0 }
                backends:
                  - { name: main, host: %s, port: %d, tls: { mode: disable } }
                limits:
                  shutdownTimeout: 1s
                admin:
                  http: { port: 0 }
                  users: [%s]
                  watchInterval: 0
                admission:
                  cpus: 1
                  tiers:
                    small: { limit: 1, maxQueue: 0 }
                """.formatted(pg.host(), pg.port(), ADMIN)
                + (records == null ? "" : "  statementRecords: " + records + "\n"));
    }

    /** The proxy as {@code memogate run --config file} starts it, in front of the star tables. */
    private static RunningProxy start(EmbeddedPostgres pg, Path file) throws Exception {
        StarSchema.ensure(pg);
        return RunningProxy.start(new ConfigLoader().load(file), Optional.of(file));
    }

    private static Connection console(RunningProxy proxy) throws SQLException {
        return ConsoleClient.connect(proxy.server().port(), ADMIN, PASSWORD);
    }

    private static Connection client(RunningProxy proxy) throws SQLException {
        return ConsoleClient.session(proxy.server().port(), StarSchema.DATABASE, ADMIN, PASSWORD);
    }

    @Test
    void eachStatementIsARowWithWhatAdmissionDecidedAndItsEstimate(EmbeddedPostgres pg) throws Exception {
        // The holder's own thread, not the common pool's one on two cores; closed after the connections.
        try (RunningProxy proxy = start(pg, write(pg, 100));
                ExecutorService thread = Executors.newSingleThreadExecutor();
                Connection console = console(proxy); Connection first = client(proxy);
                Connection second = client(proxy);
                Statement holder = first.createStatement(); Statement refused = second.createStatement()) {
            holder.execute(WIDE);
            refused.execute(WIDE);
            int holderProcess = backendPid(holder);
            try (ResultSet point = refused.executeQuery("select * from t1 where a = 42")) {
                assertThat(point.next()).isFalse();
            }
            // A multi-statement query keeps its permit until ReadyForQuery: here, for the sleep.
            CompletableFuture<Void> holding = CompletableFuture.runAsync(() -> execute(holder,
                    star(12, "holder") + "; select pg_sleep(30)"), thread);
            Await.until("the 12-table star holds SMALL", () -> proxy.admission().orElseThrow().all().getFirst()
                    .gateways().state(Tier.SMALL).active() == 1);
            assertThatThrownBy(() -> refused.execute(star(11, "refused"))).isInstanceOfSatisfying(PSQLException.class,
                    e -> assertThat(e.getSQLState()).isEqualTo("53000"));
            // A cancel that reaches the server before the statement does is dropped there: cancel the sleep.
            ServerActivity.awaitWaitEvent(pg, holderProcess, "Timeout:PgSleep");
            holder.cancel();
            assertThatThrownBy(() -> holding.get(30, TimeUnit.SECONDS)).hasMessageContaining("canceling statement");

            assertThat(ConsoleClient.columns(console, "SHOW STATEMENTS")).containsExactly("server", "number",
                    "database", "user", "outcome", "tier", "waited_s", "estimate_bytes", "estimate", "relations",
                    "memo_pairs", "refusal_reason", "refusal", "fingerprint", "json");
            List<Map<String, String>> statements = rows(console, "SHOW STATEMENTS");

            assertThat(statements).extracting(r -> Long.parseLong(r.get("number"))).as("numbered from 1, oldest first")
                    .isEqualTo(LongStream.rangeClosed(1, statements.size()).boxed().toList());
            assertThat(statements).allSatisfy(r -> assertThat(r).containsEntry("server", "main")
                    .containsEntry("database", StarSchema.DATABASE).containsEntry("user", ADMIN));
            assertThat(row(statements, "fingerprint", "select * from t1 where a = ?"))
                    .containsEntry("outcome", "bypassed").containsEntry("tier", null).containsEntry("waited_s", null)
                    .containsEntry("relations", "1").containsEntry("refusal", null);

            Map<String, String> admitted = row(statements, "relations", "12");
            assertThat(admitted).containsEntry("outcome", "admitted").containsEntry("tier", "small")
                    .containsEntry("waited_s", null).containsEntry("refusal_reason", null);
            assertThat(admitted.get("fingerprint")).startsWith("select count (*) from t0 join t1 on t0.k1 = t1.a")
                    .endsWith("...");
            JsonNode estimate = JSON.readTree(admitted.get("json"));
            assertThat(estimate.get("fingerprint").asText()).as("the json holds the whole fingerprint")
                    .contains("join t11 on t0.k11 = t11.a");
            assertThat(estimate.get("estimatedBytes").asText()).isEqualTo(admitted.get("estimate_bytes"));
            assertThat(Long.parseLong(admitted.get("estimate_bytes"))).isGreaterThan(1L << 20);
            assertThat(Long.parseLong(admitted.get("memo_pairs"))).isPositive();

            Map<String, String> refusal = row(statements, "relations", "11");
            assertThat(refusal).containsEntry("outcome", "refused").containsEntry("tier", "small")
                    .containsEntry("refusal_reason", "queue_full").containsEntry("waited_s", null);
            assertThat(refusal.get("refusal")).startsWith("SMALL gateway: queue full");

            assertThat(values(console, "SHOW STATS")).containsEntry("statements_recorded",
                    String.valueOf(statements.size())).containsEntry("statements_dropped", "0");
        }
    }

    private static int backendPid(Statement statement) throws SQLException {
        try (ResultSet pid = statement.executeQuery("select pg_backend_pid()")) {
            assertThat(pid.next()).isTrue();
            return pid.getInt(1);
        }
    }

    @Test
    void offByDefaultTheConsoleSaysHowToTurnThemOnAndAReloadTurnsThemOnAndOff(EmbeddedPostgres pg)
            throws Exception {
        try (RunningProxy proxy = start(pg, write(pg, null)); Connection console = console(proxy)) {
            PSQLException off = failure(console, "SHOW STATEMENTS");
            assertThat(off.getSQLState()).isEqualTo("55000");
            assertThat(off.getServerErrorMessage().getMessage()).contains("admission.statementRecords");
            assertThat(off.getServerErrorMessage().getHint()).contains("RELOAD");
            assertThat(row(rows(console, "SHOW CONFIG"), "key", "admission.statementRecords"))
                    .containsEntry("value", "0").containsEntry("applies", "live");

            write(pg, 2);
            assertThat(row(rows(console, "RELOAD"), "setting", "admission.statementRecords"))
                    .containsEntry("old", "0").containsEntry("new", "2").containsEntry("applied", "live");
            try (Connection client = client(proxy); Statement statement = client.createStatement()) {
                for (int table = 1; table <= 3; table++) {
                    statement.execute("select * from t" + table + " where a = 1");
                }
            }

            List<String> notices = new ArrayList<>();
            List<Map<String, String>> kept;
            try (Statement show = console.createStatement(); ResultSet rows = show.executeQuery("SHOW STATEMENTS")) {
                kept = ConsoleClient.read(rows);
                for (SQLWarning w = show.getWarnings(); w != null; w = w.getNextWarning()) {
                    notices.add(w.getMessage());
                }
            }
            assertThat(kept).extracting(r -> r.get("fingerprint"))
                    .containsExactly("select * from t2 where a = ?", "select * from t3 where a = ?");
            long dropped = Long.parseLong(kept.getFirst().get("number")) - 1;
            assertThat(notices).singleElement().isEqualTo(dropped + " older statements are no longer remembered: "
                    + "each server keeps its last 2 (admission.statementRecords)");
            assertThat(values(console, "SHOW STATS")).containsEntry("statements_recorded", "2")
                    .containsEntry("statements_dropped", String.valueOf(dropped));

            write(pg, 0);
            rows(console, "RELOAD");
            assertThat(failure(console, "SHOW STATEMENTS").getSQLState()).isEqualTo("55000");
        }
    }

    private static void execute(Statement statement, String sql) {
        try {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
