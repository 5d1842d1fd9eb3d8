package io.memogate.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.config.BackendConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConnectionViewsTest {

    /** tls.mode prefer, the default, means plain over a Unix socket: SHOW BACKENDS says what really happens. */
    @Test
    void showBackendsSaysASocketBackendHasNoTls() {
        ResultTable table = ConnectionViews.backends(List.of(BackendConfig.of("local", "/var/run/postgresql", 5432),
                BackendConfig.of("remote", "db.internal", 5432).withDatabases("reports").withDefault(false)), List.of());

        int tls = table.columns().indexOf("tls");
        assertThat(table.rows()).extracting(row -> row.get(0) + ": " + row.get(tls))
                .containsExactly("local: none (Unix socket)", "remote: prefer");
    }
}
