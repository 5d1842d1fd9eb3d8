package io.memogate.proxy.postgres.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.proxy.admission.CatalogState;
import io.memogate.proxy.admission.NoSuchDatabaseException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When catalogs are read again: a failed first read after {@link IndexCatalogs#RETRY}, a good one at refresh. */
class IndexCatalogsTest {

    private static final IndexedColumns SALES = IndexedColumns.of(Map.of("sales", Set.of("store_id")));
    private static final IndexedColumns SALES_AND_DAYS = IndexedColumns.of(
            Map.of("sales", Set.of("store_id", "day_id")));

    private static final Duration WAIT = Duration.ofSeconds(2);

    private final AtomicLong nanos = new AtomicLong();
    /** What the next reads give: a catalog, or empty for a read that fails. */
    private final Deque<Optional<IndexedColumns>> answers = new ArrayDeque<>();
    private int reads;
    private final IndexCatalogs catalogs = new IndexCatalogs(database -> {
        reads++;
        return IndexCatalogs.DatabaseCatalog.of(answers.isEmpty() ? IndexedColumns.NONE
                : answers.removeFirst().orElseThrow(() -> new SQLException("connection refused")));
    }, Runnable::run, nanos::get);

    /** A server that comes up after the proxy: its statements get the catalog within RETRY, not REFRESH. */
    @Test
    void aFailedFirstReadIsTriedAgainAfterTheRetryDelay() {
        answers.add(Optional.empty());
        answers.add(Optional.of(SALES));

        assertThat(catalogs.of("shop")).isEqualTo(Catalog.NONE);
        advance(IndexCatalogs.RETRY.minusSeconds(1));
        assertThat(catalogs.of("shop")).as("not yet tried again").isEqualTo(Catalog.NONE);
        assertThat(reads).isEqualTo(1);
        assertThat(catalogs.states()).containsExactly(
                new CatalogState("shop", "failed", 0, 0, 0, 0, 0, IndexCatalogs.RETRY.minusSeconds(1)));
        advance(Duration.ofSeconds(2));
        assertThat(catalogs.of("shop").indexes()).isSameAs(SALES);
        assertThat(reads).isEqualTo(2);
        advance(Duration.ofSeconds(7));
        assertThat(catalogs.states()).containsExactly(new CatalogState("shop", "read", 1, 0, 0, 0, 0,
                Duration.ofSeconds(7)));
    }

    /** New indexes count after a refresh; a refresh that fails keeps what was read before. */
    @Test
    void refreshesReplaceAGoodReadButAFailureKeepsIt() {
        answers.add(Optional.of(SALES));
        answers.add(Optional.empty());
        answers.add(Optional.of(SALES_AND_DAYS));

        assertThat(catalogs.of("shop").indexes()).isSameAs(SALES);
        advance(IndexCatalogs.REFRESH.plusSeconds(1));
        catalogs.of("shop"); // starts the refresh, which fails
        assertThat(catalogs.of("shop").indexes()).isSameAs(SALES);
        advance(IndexCatalogs.REFRESH.plusSeconds(1));
        catalogs.of("shop");
        assertThat(catalogs.of("shop").indexes()).isSameAs(SALES_AND_DAYS);
        assertThat(reads).isEqualTo(3);
    }

    /**
     * A refresh that finds the same indexes keeps the catalog it had: the estimates are cached under its
     * instance, and a new one for the same content would estimate every statement again.
     */
    @Test
    void aRefreshThatFindsNothingNewKeepsTheCatalogItHad() {
        answers.add(Optional.of(SALES));
        answers.add(Optional.of(IndexedColumns.of(Map.of("sales", Set.of("store_id")))));
        answers.add(Optional.of(SALES_AND_DAYS));
        Catalog first = catalogs.of("shop");

        advance(IndexCatalogs.REFRESH.plusSeconds(1));
        catalogs.of("shop"); // the refresh: the same content
        assertThat(catalogs.of("shop")).isSameAs(first);
        assertThat(catalogs.refreshAll()).isCompleted(); // a new index
        assertThat(catalogs.of("shop").indexes()).isSameAs(SALES_AND_DAYS);
        assertThat(reads).isEqualTo(3);

        // REFRESH CATALOGS on an entry due for its refresh reads once, not once more for the cache's refresh.
        answers.add(Optional.of(SALES));
        advance(IndexCatalogs.REFRESH.plusSeconds(1));
        assertThat(catalogs.refresh("shop")).isCompleted();
        assertThat(reads).isEqualTo(4);
    }

    /** What may wait (the console) gets the read when it is in; a statement meanwhile gets none. */
    @Test
    void aWaitingReadCompletesWhenTheCatalogIsIn() {
        Deque<Runnable> pending = new ArrayDeque<>();
        answers.add(Optional.of(SALES));
        answers.add(Optional.empty());
        IndexCatalogs later = new IndexCatalogs(database -> IndexCatalogs.DatabaseCatalog.of(answers.removeFirst()
                .orElseThrow(() -> new SQLException("connection refused"))), pending::add, nanos::get);

        CompletableFuture<Catalog> shop = later.whenRead("shop");
        assertThat(shop).isNotDone();
        assertThat(later.of("shop")).as("a statement does not wait").isEqualTo(Catalog.NONE);
        assertThat(later.state("shop")).hasValueSatisfying(state -> assertThat(state.state()).isEqualTo("reading"));
        runAll(pending);
        assertThat(shop.thenApply(Catalog::indexes)).isCompletedWithValue(SALES);

        CompletableFuture<Catalog> broken = later.whenRead("broken");
        runAll(pending);
        assertThat(broken).as("a failed read is no catalog, not an error").isCompletedWithValue(Catalog.NONE);
        assertThat(later.state("broken")).hasValueSatisfying(state -> assertThat(state.state()).isEqualTo("failed"));
        assertThat(later.state("never asked")).isEmpty();
    }

    /**
     * Every statement looks its database up: once the catalog is read, that must not hand work to the
     * reading thread (waking it costs a context switch on the proxy's cores). Only reads go there.
     */
    @Test
    void lookingUpAReadCatalogHandsTheReadingThreadNothing() {
        Deque<Runnable> pending = new ArrayDeque<>();
        answers.add(Optional.of(SALES));
        IndexCatalogs counted = new IndexCatalogs(database -> IndexCatalogs.DatabaseCatalog.of(answers.removeFirst()
                .orElseThrow(() -> new SQLException("connection refused"))), pending::add, nanos::get);
        counted.of("shop");
        assertThat(pending).as("the first read").hasSize(1);
        runAll(pending);

        for (int i = 0; i < 10_000; i++) {
            assertThat(counted.of("shop").indexes()).isSameAs(SALES);
        }
        assertThat(pending).isEmpty();
    }

    /**
     * A database the server does not have (3D000) is no failure to retry: EXPLAIN ADMISSION DATABASE with a
     * typo is told so, SHOW CATALOGS keeps no row of it, and once created it is read at the next lookup.
     */
    @Test
    void aDatabaseThatDoesNotExistIsAnErrorAndNotKept() {
        Deque<SQLException> failures = new ArrayDeque<>();
        failures.add(new SQLException("FATAL: database \"shpo\" does not exist", "3D000"));
        IndexCatalogs server = new IndexCatalogs(database -> {
            reads++;
            if (!failures.isEmpty()) {
                throw failures.removeFirst();
            }
            return IndexCatalogs.DatabaseCatalog.of(SALES);
        }, Runnable::run, nanos::get);

        assertThat(server.whenRead("shpo")).failsWithin(Duration.ZERO).withThrowableThat()
                .havingCause().isInstanceOf(NoSuchDatabaseException.class)
                .withMessage("FATAL: database \"shpo\" does not exist");
        assertThat(server.states()).as("no failed row for a typo").isEmpty();
        assertThat(server.whenRead("shpo").thenApply(Catalog::indexes)).as("created since: read at once, not after"
                + " RETRY").isCompletedWithValue(SALES);
        assertThat(reads).isEqualTo(2);
    }

    /** A database dropped since its catalog was read leaves SHOW CATALOGS at its next refresh. */
    @Test
    void aDroppedDatabaseLeavesAtItsRefresh() {
        IndexCatalogs server = new IndexCatalogs(database -> {
            if (reads++ > 0) {
                throw new SQLException("FATAL: database \"shop\" does not exist", "3D000");
            }
            return IndexCatalogs.DatabaseCatalog.of(SALES);
        }, Runnable::run, nanos::get);
        assertThat(server.of("shop").indexes()).isSameAs(SALES);

        advance(IndexCatalogs.REFRESH.plusSeconds(1));
        server.of("shop"); // starts the refresh, which finds it gone

        assertThat(server.states()).isEmpty();
    }

    /** REFRESH CATALOGS: read again now, not at the refresh; a database that does not exist is an error. */
    @Test
    void aRefreshReadsAgainAtOnceAndTellsOfADatabaseThatIsGone() {
        answers.add(Optional.of(SALES));
        answers.add(Optional.of(SALES_AND_DAYS));
        assertThat(catalogs.of("shop").indexes()).isSameAs(SALES);

        assertThat(catalogs.refreshAll()).isCompleted();
        assertThat(catalogs.of("shop").indexes()).as("no time has passed").isSameAs(SALES_AND_DAYS);
        assertThat(reads).isEqualTo(2);

        IndexCatalogs server = new IndexCatalogs(database -> {
            throw new SQLException("FATAL: database \"" + database + "\" does not exist", "3D000");
        }, Runnable::run, nanos::get);
        assertThat(server.refresh("shpo")).failsWithin(Duration.ZERO).withThrowableThat()
                .havingCause().isInstanceOf(NoSuchDatabaseException.class);
        assertThat(server.states()).isEmpty();
    }

    /** Statements wait for a database's first read only: not for refreshes, nor for the retries of a failure. */
    @Test
    void onlyTheFirstReadIsOneToWaitFor() {
        Deque<Runnable> pending = new ArrayDeque<>();
        answers.add(Optional.empty());
        answers.add(Optional.of(SALES));
        IndexCatalogs later = new IndexCatalogs(database -> IndexCatalogs.DatabaseCatalog.of(answers.removeFirst()
                .orElseThrow(() -> new SQLException("connection refused"))), pending::add, nanos::get);

        Optional<CompletableFuture<Catalog>> first = later.firstRead("shop", WAIT);
        assertThat(first).hasValueSatisfying(read -> assertThat(read).isNotDone());
        runAll(pending);
        assertThat(first.orElseThrow()).as("failed: estimated from the SQL").isCompletedWithValue(Catalog.NONE);
        assertThat(later.firstRead("shop", WAIT)).isEmpty();

        advance(IndexCatalogs.RETRY.plusSeconds(1));
        later.of("shop"); // the retry starts
        assertThat(later.firstRead("shop", WAIT)).as("a retry holds up nothing").isEmpty();
        runAll(pending);
        assertThat(later.of("shop").indexes()).isSameAs(SALES);
        assertThat(IndexCatalogs.NONE.firstRead("shop", WAIT)).isEmpty();
    }

    /** A slow first read holds up the statements of its first seconds only, not each one for as long again. */
    @Test
    void theWaitForASlowFirstReadHasOneDeadline() {
        Deque<Runnable> pending = new ArrayDeque<>();
        answers.add(Optional.of(SALES));
        IndexCatalogs slow = new IndexCatalogs(database -> IndexCatalogs.DatabaseCatalog.of(answers.removeFirst()
                .orElseThrow()), pending::add, nanos::get);

        assertThat(slow.firstRead("shop", WAIT)).isPresent();
        advance(WAIT.minusMillis(1));
        assertThat(slow.firstRead("shop", WAIT)).as("within the deadline").isPresent();
        advance(Duration.ofMillis(2));
        assertThat(slow.firstRead("shop", WAIT)).as("past it: from the SQL").isEmpty();
        runAll(pending);
        assertThat(slow.of("shop").indexes()).isSameAs(SALES);
    }

    @Test
    void withoutAMonitorNothingIsRead() {
        assertThat(IndexCatalogs.NONE.of("shop")).isEqualTo(Catalog.NONE);
        assertThat(IndexCatalogs.NONE.whenRead("shop")).isCompletedWithValue(Catalog.NONE);
        assertThat(IndexCatalogs.NONE.states()).isEmpty();
    }

    /** Runs what the cache handed its executor: the reads. */
    private static void runAll(Deque<Runnable> pending) {
        while (!pending.isEmpty()) {
            pending.removeFirst().run();
        }
    }

    private void advance(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }
}
