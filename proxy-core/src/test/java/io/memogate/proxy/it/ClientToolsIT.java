package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.it.ClientProgram.Result;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** libpq's own tools through the proxy: psql running a script, pgbench's select-only load. */
@ExtendWith(EmbeddedPostgresExtension.class)
class ClientToolsIT {

    @Test
    void psqlRunsAScriptWithCopyAndErrorsHandled(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        Path script = dir.resolve("script.sql");
        Files.writeString(script, """
                \\set ON_ERROR_STOP 1
                create temporary table tools (id int primary key, name text);
                insert into tools values (1, 'psql'), (2, 'pgbench');
                \\copy tools from stdin
                3	libpq
                4	memogate
                \\.
                select string_agg(name, ',' order by id) as names from tools;
                \\echo done
                """);
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start()) {
            Result result = run(dir, List.of("psql", "-X", "-A", "-t", "-h", "127.0.0.1", "-p", String.valueOf(proxy.port()),
                    "-U", TestUsers.SCRAM_USER, "-d", "demo", "-f", script.toString()));
            assertThat(result.exitCode()).as(result.output()).isZero();
            assertThat(result.output()).contains("psql,pgbench,libpq,memogate").contains("done");
        }
    }

    /** psql's habit on the database host: -h names the socket directory, and the port names the socket. */
    @Test
    void psqlReachesTheProxyOnItsUnixSocket(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        Path sockets = Files.createDirectory(dir.resolve("run"));
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).unixListener(sockets, 6543).start()) {
            Result result = run(dir, List.of("psql", "-X", "-A", "-t", "-h", sockets.toString(), "-p", "6543",
                    "-U", TestUsers.SCRAM_USER, "-d", "demo", "-c", "select 'over the socket: ' || current_user"));
            assertThat(result.exitCode()).as(result.output()).isZero();
            assertThat(result.output()).contains("over the socket: " + TestUsers.SCRAM_USER);
        }
    }

    @Test
    void psqlReportsAServerErrorAndStops(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start()) {
            Result result = run(dir, List.of("psql", "-X", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
                    String.valueOf(proxy.port()), "-U", TestUsers.SCRAM_USER, "-d", "demo", "-c", "select * from missing_table"));
            assertThat(result.exitCode()).isNotZero();
            assertThat(result.output()).contains("relation \"missing_table\" does not exist");
        }
    }

    @Test
    void pgbenchSelectOnlyRunsWithoutErrorsInBothQueryModes(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        pg.createDatabase("pgbench_it", TestUsers.SCRAM_USER);
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start()) {
            List<String> connection = List.of("-h", "127.0.0.1", "-p", String.valueOf(proxy.port()),
                    "-U", TestUsers.SCRAM_USER);
            Result init = run(dir, concat(List.of("pgbench", "-i", "-s", "1", "-q"), connection, List.of("pgbench_it")));
            assertThat(init.exitCode()).as(init.output()).isZero();
            for (String mode : List.of("simple", "prepared")) {
                Result load = run(dir, concat(List.of("pgbench", "-S", "-T", "3", "-c", "4", "-j", "2", "-M", mode),
                        connection, List.of("pgbench_it")));
                assertThat(load.exitCode()).as(load.output()).isZero();
                assertThat(load.output()).contains("query mode: " + mode);
                assertThat(processedTransactions(load.output())).as(load.output()).isPositive();
                if (load.output().contains("number of failed transactions")) {
                    assertThat(load.output()).contains("number of failed transactions: 0");
                }
            }
        }
    }

    private static long processedTransactions(String output) {
        for (String line : output.split("\n")) {
            if (line.startsWith("number of transactions actually processed:")) {
                return Long.parseLong(line.replaceAll(".*processed: (\\d+).*", "$1"));
            }
        }
        return -1;
    }

    private static Result run(Path dir, List<String> command) throws IOException, InterruptedException {
        return ClientProgram.run(dir, Map.of("PGPASSWORD", TestUsers.SCRAM_PASSWORD, "PGSSLMODE", "disable"), command);
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> all = new ArrayList<>();
        for (List<String> part : parts) {
            all.addAll(part);
        }
        return all;
    }
}
