package io.memogate.proxy.mysql.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.planner.TableStatistics;
import io.memogate.proxy.admission.NoSuchDatabaseException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The cache of schemas' table statistics as a statement sees it: read once and served from then on, read again
 * after the refresh interval and on REFRESH CATALOGS, a failed read estimated from SQL and retried, a schema
 * that does not exist not kept.
 */
class MySqlCatalogsTest {

    private final AtomicLong nanos = new AtomicLong();
    private final AtomicInteger reads = new AtomicInteger();
    private volatile long rows = 100;
    private volatile boolean failing;

    private TableStatistics read(String schema) throws SQLException {
        reads.incrementAndGet();
        if (schema.equals("missing")) {
            throw new SQLException("Unknown database 'missing'", "42000", StatisticsCatalog.UNKNOWN_DATABASE);
        }
        if (failing) {
            throw new SQLException("Connection refused", "08000");
        }
        return TableStatistics.of(Map.of("t", new TableStatistics.Table(rows, 1,
                List.of(new TableStatistics.Index(List.of("id"), true, List.of(rows))))));
    }

    private MySqlCatalogs catalogs() {
        return new MySqlCatalogs(this::read, Runnable::run, nanos::get);
    }

    @Test
    void aSchemaIsReadOnceAndServedUntilItsRefresh() {
        MySqlCatalogs catalogs = catalogs();
        Catalog first = catalogs.of("app");
        assertThat(first.statistics().table("t").orElseThrow().rows()).isEqualTo(100);
        assertThat(catalogs.of("app")).isSameAs(first);
        assertThat(reads).hasValue(1);
        rows = 5000;
        nanos.addAndGet(MySqlCatalogs.REFRESH.plusSeconds(1).toNanos());
        catalogs.of("app"); // starts the refresh; the read before serves meanwhile
        assertThat(catalogs.of("app").statistics().table("t").orElseThrow().rows()).isEqualTo(5000);
        assertThat(catalogs.states()).singleElement().satisfies(state -> {
            assertThat(state.state()).isEqualTo("read");
            assertThat(state.tables()).isEqualTo(1);
        });
    }

    @Test
    void aFailedReadIsEstimatedFromSqlAndTriedAgain() {
        failing = true;
        MySqlCatalogs catalogs = catalogs();
        assertThat(catalogs.of("app")).isSameAs(Catalog.NONE);
        assertThat(catalogs.states()).singleElement().satisfies(state -> assertThat(state.state()).isEqualTo("failed"));
        failing = false;
        nanos.addAndGet(MySqlCatalogs.RETRY.plusSeconds(1).toNanos());
        assertThat(catalogs.of("app").statistics().tables()).isEqualTo(1);
    }

    @Test
    void aRefreshThatFailsKeepsTheReadBefore() throws Exception {
        MySqlCatalogs catalogs = catalogs();
        Catalog good = catalogs.of("app");
        failing = true;
        catalogs.refresh("app").get();
        assertThat(catalogs.of("app")).isSameAs(good);
    }

    @Test
    void aSchemaThatDoesNotExistIsNotKept() {
        MySqlCatalogs catalogs = catalogs();
        assertThatThrownBy(() -> catalogs.whenRead("missing").get()).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(NoSuchDatabaseException.class);
        assertThat(catalogs.states()).isEmpty();
        assertThat(catalogs.of("")).isSameAs(Catalog.NONE);
        assertThat(catalogs.firstRead("app", Duration.ofSeconds(1))).isEmpty(); // read at once here: nothing to wait for
    }
}
