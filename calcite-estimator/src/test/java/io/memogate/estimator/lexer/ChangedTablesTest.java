package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.lexer.ChangedTables.Change;
import io.memogate.estimator.lexer.ChangedTables.Target;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChangedTablesTest {

    private static List<Target> of(String sql) {
        return ChangedTables.of(PostgresLexing.tokens(sql));
    }

    private static Target target(String table, Change... changes) {
        return new Target(Optional.empty(), table, Set.of(changes));
    }

    @Test
    void eachKindOfChangeNamesItsTable() {
        assertThat(of("insert into orders (id) values (1)")).containsExactly(target("orders", Change.INSERT));
        assertThat(of("UPDATE ONLY orders * AS o SET total = 0 WHERE o.id = 1"))
                .containsExactly(target("orders", Change.UPDATE));
        assertThat(of("update orders o set total = 0")).containsExactly(target("orders", Change.UPDATE));
        assertThat(of("delete from only orders where id = 1")).containsExactly(target("orders", Change.DELETE));
        assertThat(of("copy orders (id, total) from stdin")).containsExactly(target("orders", Change.INSERT));
        assertThat(of("truncate table orders, only lines *, \"Audit\""))
                .containsExactly(target("orders", Change.TRUNCATE), target("lines", Change.TRUNCATE),
                        target("Audit", Change.TRUNCATE));
    }

    @Test
    void aTruncateCascadeMarksEachTableItNames() {
        assertThat(of("truncate orders, sales.lines restart identity cascade")).containsExactly(
                new Target(Optional.empty(), "orders", Set.of(Change.TRUNCATE), true),
                new Target(Optional.of("sales"), "lines", Set.of(Change.TRUNCATE), true));
        assertThat(of("TRUNCATE TABLE ONLY orders * CASCADE")).containsExactly(
                new Target(Optional.empty(), "orders", Set.of(Change.TRUNCATE), true));
        for (String plain : List.of("truncate orders", "truncate orders restrict",
                "truncate orders continue identity restrict", "truncate cascade")) {
            assertThat(of(plain)).as(plain).allSatisfy(target -> assertThat(target.cascade()).isFalse());
        }
    }

    @Test
    void schemasAreKeptAndFoldedAsPostgresqlFoldsThem() {
        assertThat(of("insert into Sales.Orders values (1)"))
                .containsExactly(new Target(Optional.of("sales"), "orders", Set.of(Change.INSERT)));
        assertThat(of("delete from db.\"Sales\".orders"))
                .containsExactly(new Target(Optional.of("Sales"), "orders", Set.of(Change.DELETE)));
    }

    @Test
    void anUpsertAlsoUpdatesAndAMergeDoesWhatItsActionsSay() {
        assertThat(of("insert into stock as s values (1, 2) on conflict (id) do update set n = s.n + 1"))
                .containsExactly(target("stock", Change.INSERT, Change.UPDATE));
        assertThat(of("insert into stock values (1, 2) on conflict do nothing"))
                .containsExactly(target("stock", Change.INSERT));
        assertThat(of("merge into stock s using incoming i on s.id = i.id when matched then update set n = i.n"
                + " when not matched then insert values (i.id, i.n)"))
                .containsExactly(target("stock", Change.INSERT, Change.UPDATE));
        assertThat(of("merge into stock s using incoming i on s.id = i.id when matched then delete"))
                .containsExactly(target("stock", Change.DELETE));
    }

    @Test
    void dataModifyingCtesChangeTheirTablesToo() {
        assertThat(of("with moved as (delete from queue where id < 10 returning *) insert into archive"
                + " select * from moved")).containsExactly(target("queue", Change.DELETE),
                        target("archive", Change.INSERT));
    }

    @Test
    void rowLocksQueriesAndCopiesOutChangeNothing() {
        assertThat(of("select * from orders for update")).isEmpty();
        assertThat(of("select * from orders for no key update of orders skip locked")).isEmpty();
        assertThat(of("select * from orders o join lines l on l.o = o.id")).isEmpty();
        assertThat(of("copy orders to stdout")).isEmpty();
        assertThat(of("copy (select * from orders) to stdout")).isEmpty();
        assertThat(of("grant insert, update, delete on orders to clerk")).isEmpty();
    }
}
