package io.memogate.proxy.it;

import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** The pass-through contract against the embedded PostgreSQL 18, the suite's default server. */
@ExtendWith(EmbeddedPostgresExtension.class)
class EmbeddedPostgresPassthroughIT extends PassthroughContract {

    private static EmbeddedPostgres pg;

    @BeforeAll
    static void server(EmbeddedPostgres server) {
        pg = server;
    }

    @Override
    protected Backend backend() {
        return new Backend(pg.host(), pg.port(), "demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD);
    }
}
