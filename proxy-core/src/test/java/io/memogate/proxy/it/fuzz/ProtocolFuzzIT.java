package io.memogate.proxy.it.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.it.ProxyFixture;
import io.memogate.proxy.testing.Await;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A seeded, differential fuzz test of the client leg: each case is a random mix of valid simple-protocol,
 * extended-protocol and COPY messages ({@link CaseGenerator}), then broken a few random ways ({@link Mutator}),
 * sent once to PostgreSQL directly and once through the proxy, each on a fresh connection. Through the proxy
 * the answers must be well-formed, the connection must end, and the client must get the answers PostgreSQL
 * gave and the table the rows it got, but for the differences docs/admission.md documents ({@link Verdict}). After
 * all cases the proxies still serve and hold no server connection.
 *
 * <p>Three proxies, the case's seed picks one ({@link FuzzCase.Proxy}): one that forwards statements unread, one
 * that reads each and admits it at once, and one that holds most statements a few milliseconds for a decision
 * made on another thread ({@link HoldingAdmission}), which must change nothing the client sees. Through that one
 * every statement admitted must also have heard a final release signal by the end of its session.
 *
 * <p>{@code -Dfuzz.cases=N} runs more cases (default {@value #DEFAULT_CASES}), from seed
 * {@code -Dfuzz.firstSeed} on (default 1); {@code -Dfuzz.seed=S} replays the case of seed S ({@code S1,S2,...}
 * several); {@code -Dfuzz.proxy=relaying|reading|holding} sends every case through that proxy. A failing case is
 * printed with its seed, what it sent (labelled, and in hex) and both runs' answers.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class ProtocolFuzzIT {

    private static final int DEFAULT_CASES = 200;
    /** How long the proxy has to relay the answers PostgreSQL gave before it is taken as keeping them. */
    private static final Duration ANSWERS_WAIT = Duration.ofSeconds(10);

    @Test
    void theProxyAnswersBrokenStreamsAsPostgresqlDoesAndLosesNothing(EmbeddedPostgres pg) throws Exception {
        long[] seeds = seeds();
        List<String> failures = new ArrayList<>();
        Map<Verdict.Allowance, Integer> allowances = new EnumMap<>(Verdict.Allowance.class);
        Map<FuzzCase.Proxy, Integer> cases = new EnumMap<>(FuzzCase.Proxy.class);
        Optional<FuzzCase.Proxy> forced = Optional.ofNullable(System.getProperty("fuzz.proxy"))
                .map(name -> FuzzCase.Proxy.valueOf(name.strip().toUpperCase(Locale.ROOT)));
        try (HoldingAdmission holding = new HoldingAdmission();
                ProxyFixture relaying = ProxyFixture.to(pg.host(), pg.port()).admission(new ImmediateAdmission()).start();
                ProxyFixture reading = ProxyFixture.to(pg.host(), pg.port()).admission(request -> Admission.IMMEDIATE)
                        .start();
                ProxyFixture holdingProxy = ProxyFixture.to(pg.host(), pg.port()).admission(holding).start();
                Connection admin = pg.connect("demo")) {
            Map<FuzzCase.Proxy, ProxyFixture> proxies = new EnumMap<>(Map.of(FuzzCase.Proxy.RELAYING, relaying,
                    FuzzCase.Proxy.READING, reading, FuzzCase.Proxy.HOLDING, holdingProxy));
            long started = System.nanoTime();
            for (long seed : seeds) {
                FuzzCase fuzzCase = forced.map(FuzzCase.of(seed)::through).orElseGet(() -> FuzzCase.of(seed));
                holding.newCase(fuzzCase.admissionSeed());
                Verdict verdict = runCase(fuzzCase, pg, proxies.get(fuzzCase.proxy()), admin);
                if (fuzzCase.proxy() == FuzzCase.Proxy.HOLDING) {
                    checkReleased(holdingProxy, holding, verdict);
                }
                cases.merge(fuzzCase.proxy(), 1, Integer::sum);
                allowances.merge(verdict.allowance(), 1, Integer::sum);
                if (!verdict.problems().isEmpty()) {
                    failures.add(fuzzCase.describe() + "\nproblems:\n  " + String.join("\n  ", verdict.problems()));
                    System.err.println("FUZZ FAILURE " + failures.getLast());
                }
            }
            System.err.printf("protocol fuzz: %d cases (%s) in %d s, %d failed; allowances used: %s%n", seeds.length,
                    cases, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), failures.size(), allowances);
            assertThat(failures).as("failed cases (each with its seed and bytes)").isEmpty();
            for (ProxyFixture proxy : proxies.values()) {
                assertStillServesAndHoldsNoServerConnection(proxy);
            }
        }
    }

    private static long[] seeds() {
        String replay = System.getProperty("fuzz.seed");
        if (replay != null) {
            return Arrays.stream(replay.split(",")).mapToLong(seed -> Long.parseLong(seed.strip())).toArray();
        }
        long first = Long.getLong("fuzz.firstSeed", 1);
        return LongStream.range(first, first + Integer.getInteger("fuzz.cases", DEFAULT_CASES)).toArray();
    }

    private static Verdict runCase(FuzzCase fuzzCase, EmbeddedPostgres pg, ProxyFixture proxy, Connection admin)
            throws Exception {
        String name = "fuzz_" + Long.toUnsignedString(fuzzCase.seed());
        String directSchema = name + "_direct";
        String proxySchema = name + "_proxy";
        createSchema(admin, directSchema);
        createSchema(admin, proxySchema);
        try {
            WireRun.Result direct = run(pg.port(), fuzzCase, directSchema, answers -> true);
            List<String> answers = Verdict.answersBeforeEndOfInput(Replies.parse(direct.replies()).tokens());
            awaitServerProcessGone(admin, directSchema);
            WireRun.Result proxied = run(proxy.port(), fuzzCase, proxySchema, read -> read >= answers.size());
            List<String> leaked = new ArrayList<>();
            if (!awaitServerProcessGone(admin, proxySchema)) {
                leaked.add("leak: the server process of the proxy's run still exists " + WireRun.DEADLINE
                        + " after its client's connection closed");
            }
            Verdict verdict = Verdict.judge(
                    new Verdict.Outcome(direct, Replies.parse(direct.replies()), rows(admin, directSchema)),
                    new Verdict.Outcome(proxied, Replies.parse(proxied.replies()), rows(admin, proxySchema)),
                    fuzzCase.proxy() == FuzzCase.Proxy.HOLDING);
            verdict.problems().addAll(leaked);
            if (!verdict.problems().isEmpty()) {
                verdict.problems().add("direct run: " + direct.end() + " after " + direct.millis() + " ms, answers "
                        + Replies.parse(direct.replies()).tokens());
                verdict.problems().add("proxy run: " + proxied.end() + " after " + proxied.millis() + " ms, answers "
                        + Replies.parse(proxied.replies()).tokens());
            }
            return verdict;
        } finally {
            try (Statement statement = admin.createStatement()) {
                statement.execute("drop schema " + directSchema + ", " + proxySchema + " cascade");
            }
        }
    }

    /**
     * Every statement the holding proxy admitted for the case must have heard a final release signal once its
     * session is over: one that did not would have kept its gateway permits for the life of the proxy.
     */
    private static void checkReleased(ProxyFixture proxy, HoldingAdmission holding, Verdict verdict)
            throws InterruptedException {
        proxy.awaitSessionCount(0);
        int unreleased = holding.awaitReleased(TimeUnit.SECONDS.toMillis(5));
        if (unreleased > 0) {
            verdict.problems().add("leak: " + unreleased + " statements admitted by the holding proxy never heard a"
                    + " final release signal, though their session is over");
            holding.reset();
        }
    }

    private static WireRun.Result run(int port, FuzzCase fuzzCase, String schema, WireRun.HalfClose halfClose)
            throws Exception {
        String user = fuzzCase.passwordLogin() ? TestUsers.PLAIN_USER : TestUsers.TRUST_USER;
        return WireRun.run(port, user, TestUsers.PLAIN_PASSWORD, fuzzCase, halfClose, ANSWERS_WAIT,
                "application_name", schema, "options", "-c search_path=" + schema);
    }

    /** The run's own table {@code t}, in a schema named like its connection's application_name. */
    private static void createSchema(Connection admin, String schema) throws SQLException {
        try (Statement statement = admin.createStatement()) {
            statement.execute("drop schema if exists " + schema + " cascade");
            statement.execute("create schema " + schema);
            statement.execute("create table " + schema + ".t (id int)");
            statement.execute("grant usage on schema " + schema + " to public");
            statement.execute("grant select, insert on " + schema + ".t to public");
        }
    }

    /**
     * Waits until no server process of the run is left: after its client's connection closed, a server may
     * still be finishing what it read (or, through the proxy, not yet have been told to stop).
     */
    private static boolean awaitServerProcessGone(Connection admin, String applicationName) throws Exception {
        try (PreparedStatement count = admin.prepareStatement(
                "select count(*) from pg_stat_activity where application_name = ?")) {
            count.setString(1, applicationName);
            return Await.holdsWithin(WireRun.DEADLINE, () -> {
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    return rows.getInt(1) == 0;
                }
            });
        }
    }

    private static List<Integer> rows(Connection admin, String schema) throws SQLException {
        List<Integer> ids = new ArrayList<>();
        try (Statement statement = admin.createStatement();
                ResultSet rows = statement.executeQuery("select id from " + schema + ".t")) {
            while (rows.next()) {
                ids.add(rows.getInt(1));
            }
        }
        return ids;
    }

    private static void assertStillServesAndHoldsNoServerConnection(ProxyFixture proxy) throws Exception {
        assertThat(proxy.awaitSessionCount(0)).as("sessions left open").isZero();
        Await.until("no server connection left open", Duration.ofSeconds(10),
                () -> proxy.server().serverConnectionCount() == 0);
        try (Connection connection = proxy.connect("demo", TestUsers.TRUST_USER, null);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select 'still serving'")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo("still serving");
        }
    }
}
