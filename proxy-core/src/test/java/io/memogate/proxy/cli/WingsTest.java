package io.memogate.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.mysql.MySqlServer;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.tds.TdsServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A listener's {@code protocol} picks its wing; one this build has no wing for stops the start, named. */
class WingsTest {

    @TempDir
    Path dir;

    @Test
    void aListenerSpeaksPostgresqlUnlessTheFileSaysOtherwise() throws Exception {
        MemogateConfig config = new ConfigLoader().parse("""
                listeners:
                  - {port: 6432}
                  - {port: 3307, protocol: mysql}
                backends: [{name: main, host: localhost}]
                """, dir);
        assertThat(config.listeners()).extracting(ListenerConfig::protocol)
                .containsExactly(Protocol.POSTGRESQL, Protocol.MYSQL);
    }

    @Test
    void aProtocolNobodySpeaksIsAProblemNamingTheField() {
        assertThatThrownBy(() -> new ConfigLoader().parse("""
                listeners: [{port: 6432, protocol: oracle}]
                backends: [{name: main, host: localhost}]
                """, dir)).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                .anySatisfy(problem -> assertThat(problem).startsWith("listeners[0].protocol")
                        .contains("postgresql, mysql, tds").contains("'oracle'")));
    }

    @Test
    void everyProtocolOfTheFileHasItsWing() {
        assertThat(Wings.BUILT_IN).containsOnlyKeys(List.of(Protocol.values()));
    }

    /** A tds listener's backend is a SQL Server: its batches are estimated as T-SQL. */
    @Test
    void theDefaultBackendOfATdsListenerIsASqlServer() {
        MemogateConfig config = MemogateConfig.of(BackendConfig.of("main", "127.0.0.1", 1433)).withListeners(
                ListenerConfig.of("127.0.0.1", 0).withProtocol(Protocol.TDS));
        assertThat(Wings.kindOf(config, "main")).isSameAs(TdsServer.KIND);
        assertThat(Wings.kindOf(config, "other")).isSameAs(PostgresServer.KIND);
    }

    /** A mysql listener's backend is a MySQL server: its sessions are estimated by MySQL's dialect. */
    @Test
    void theDefaultBackendOfAMysqlListenerIsAMysqlServerAndTheOthersArePostgresql() {
        MemogateConfig config = MemogateConfig.of(BackendConfig.of("main", "127.0.0.1", 3306)).withListeners(
                ListenerConfig.of("127.0.0.1", 0).withProtocol(Protocol.MYSQL));
        assertThat(Wings.kindOf(config, "main")).isSameAs(MySqlServer.KIND);
        assertThat(Wings.kindOf(config, "other")).isSameAs(PostgresServer.KIND);
        assertThat(Wings.kindOf(config.withListeners(ListenerConfig.of("127.0.0.1", 0)), "main"))
                .isSameAs(PostgresServer.KIND);
    }
}
