package io.memogate.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The database a test names by its JDBC URL, or a clear error for a URL Memogate cannot stand in front of. */
class TargetDatabaseTest {

    @Test
    void aPgjdbcUrlNamesTheServerAndTheDatabase() {
        assertThat(TargetDatabase.fromJdbcUrl("jdbc:postgresql://db.internal:6543/shop?user=app&password=x"))
                .isEqualTo(new TargetDatabase("db.internal", 6543, "shop"));
        assertThat(TargetDatabase.fromJdbcUrl("jdbc:postgresql://localhost/shop"))
                .isEqualTo(new TargetDatabase("localhost", 5432, "shop"));
    }

    @Test
    void anotherUrlIsRefusedWithoutRepeatingItsParameters() {
        assertThatThrownBy(() -> TargetDatabase.fromJdbcUrl("jdbc:mysql://localhost:3306/shop?password=secret"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database), was "
                        + "jdbc:mysql://localhost:3306/shop?...");
        assertThatThrownBy(() -> TargetDatabase.fromJdbcUrl("jdbc:postgresql://a:5432,b:5432/shop"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one host and a database");
        assertThatThrownBy(() -> TargetDatabase.fromJdbcUrl("jdbc:postgresql://localhost:5432/"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one host and a database");
    }
}
