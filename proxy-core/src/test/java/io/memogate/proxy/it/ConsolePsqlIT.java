package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.cli.RunningProxy;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin console through psql, the tool a DBA reaches for: result sets print as tables (and as
 * unaligned rows for scripts), changes print their tag and notice, errors print with their detail, and a
 * role that is not an admin is turned away after the server has authenticated it.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class ConsolePsqlIT {

    @TempDir
    Path dir;

    private RunningProxy proxy;

    @AfterEach
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void psqlReadsEveryCommandsAnswer(EmbeddedPostgres pg) throws Exception {
        proxy = RunningProxy.start(AdminConsoleIT.config(pg));

        Result tiers = psql(TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD, "-A", "-t", "-F", "|", "-c", "SHOW TIERS");
        assertThat(tiers.exitCode()).as(tiers.output()).isZero();
        assertThat(tiers.output().lines().toList()).hasSize(3).first().asString().startsWith("main|small|1|0|0|1048576|");

        Path script = Files.writeString(dir.resolve("console.sql"), """
                \\set ON_ERROR_STOP 0
                show stats;
                PAUSE;
                SET tiers.small.limit = 4;
                show queue;
                resume;
                EXPLAIN ADMISSION select * from sales join customers on sales.customer_id = customers.id;
                SHOW BROKERS;
                """);
        Result session = psql(TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD, "-f", script.toString());
        assertThat(session.output())
                .contains("client_connections")
                .contains("NOTICE:  paused: 0 admitted statements finish")
                .contains("PAUSE")
                .contains("NOTICE:  admission.tiers.small.limit = 4 (was 1)")
                .contains("(0 rows)")
                .contains("RESUME")
                .contains("estimated_bytes")
                .contains("ERROR:  unknown admin console command: \"SHOW BROKERS\"")
                .contains("DETAIL:  Valid commands: SHOW TIERS");
        assertThat(proxy.admission().orElseThrow().all().getFirst().gateways().state(Tier.SMALL).limit()).isEqualTo(4);
        assertThat(proxy.admission().orElseThrow().all().getFirst().gateways().paused()).isFalse();
    }

    @Test
    void psqlAsANonAdminIsRefusedWithTheSettingToChange(EmbeddedPostgres pg) throws Exception {
        proxy = RunningProxy.start(AdminConsoleIT.config(pg));

        Result refused = psql(TestUsers.MD5_USER, TestUsers.MD5_PASSWORD, "-c", "SHOW TIERS");

        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.output()).contains("FATAL:  permission denied for the admin console: role \"memogate_md5\" "
                + "is not listed in admin.users");
        Result wrongPassword = psql(TestUsers.SCRAM_USER, "wrong", "-c", "SHOW TIERS");
        assertThat(wrongPassword.exitCode()).isEqualTo(2);
        assertThat(wrongPassword.output()).contains("password authentication failed for user \"memogate\"");
    }

    /** libpq's extended protocol as pgbench sends it: Parse, Bind, Describe, Execute, Sync; named statements. */
    @Test
    void pgbenchRunsConsoleCommandsInTheExtendedAndPreparedModes(EmbeddedPostgres pg) throws Exception {
        proxy = RunningProxy.start(AdminConsoleIT.config(pg));
        Path script = Files.writeString(dir.resolve("console-load.sql"), """
                SHOW TIERS;
                SHOW STATS;
                EXPLAIN ADMISSION select * from sales join customers on sales.customer_id = customers.id;
                """);
        for (String mode : List.of("extended", "prepared")) {
            Result load = run(List.of("pgbench", "-n", "-M", mode, "-c", "2", "-t", "20", "-f", script.toString(),
                    "-h", "127.0.0.1", "-p", String.valueOf(proxy.server().port()), "-U", TestUsers.SCRAM_USER,
                    "memogate"), TestUsers.SCRAM_PASSWORD);
            assertThat(load.exitCode()).as(load.output()).isZero();
            assertThat(load.output()).as(mode).contains("number of transactions actually processed: 40/40");
        }
    }

    private Result psql(String user, String password, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("psql", "-X", "-h", "127.0.0.1", "-p",
                String.valueOf(proxy.server().port()), "-U", user, "-d", "memogate"));
        command.addAll(List.of(arguments));
        return run(command, password);
    }

    private Result run(List<String> command, String password) throws IOException, InterruptedException {
        return ClientProgram.run(dir, Map.of("PGPASSWORD", password, "PGSSLMODE", "disable"), command);
    }
}
