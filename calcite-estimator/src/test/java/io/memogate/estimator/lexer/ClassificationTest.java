package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClassificationTest {

    /** Asserts kind, query kind, planned, and the planned query's text. */
    private static Classification assertQuery(String sql, StatementKind kind, StatementKind queryKind,
            boolean planned, String query) {
        Classification c = PostgresLexing.classification(sql);
        assertThat(c.kind()).as(sql).isEqualTo(kind);
        assertThat(c.queryKind()).as(sql).isEqualTo(queryKind);
        assertThat(c.isPlanned()).as(sql).isEqualTo(planned);
        assertThat(c.queryText(sql)).as(sql).isEqualTo(query);
        if (c.hasQueryText()) {
            assertThat(PostgresLexing.tokens(sql).start(c.queryToken())).isEqualTo(c.queryStart());
        } else {
            assertThat(c.queryToken()).isEqualTo(-1);
        }
        return c;
    }

    private static void assertUtility(String sql, StatementKind kind) {
        assertQuery(sql, kind, kind, false, "");
    }

    @Test
    void plainQueries() {
        assertQuery("SELECT 1", StatementKind.SELECT, StatementKind.SELECT, true, "SELECT 1");
        assertQuery("values (1), (2)", StatementKind.VALUES, StatementKind.VALUES, true, "values (1), (2)");
        assertQuery("TABLE t", StatementKind.TABLE, StatementKind.TABLE, true, "TABLE t");
        assertQuery("insert into t values (1)", StatementKind.INSERT, StatementKind.INSERT, true,
                "insert into t values (1)");
        assertQuery("update t set a = 1", StatementKind.UPDATE, StatementKind.UPDATE, true, "update t set a = 1");
        assertQuery("delete from t", StatementKind.DELETE, StatementKind.DELETE, true, "delete from t");
        assertQuery("merge into t using s on t.id = s.id when matched then delete", StatementKind.MERGE,
                StatementKind.MERGE, true, "merge into t using s on t.id = s.id when matched then delete");
        assertQuery("((select 1) union (select 2))", StatementKind.SELECT, StatementKind.SELECT, true,
                "((select 1) union (select 2))");
    }

    @Test
    void withTellsItsBody() {
        assertQuery("with x as (select 1) select * from x", StatementKind.WITH, StatementKind.SELECT, true,
                "with x as (select 1) select * from x");
        assertQuery("WITH RECURSIVE r (n) AS NOT MATERIALIZED (values (1) union all select n + 1 from r), "
                + "d AS MATERIALIZED (delete from t returning *) insert into u select * from r, d",
                StatementKind.WITH, StatementKind.INSERT, true,
                "WITH RECURSIVE r (n) AS NOT MATERIALIZED (values (1) union all select n + 1 from r), "
                        + "d AS MATERIALIZED (delete from t returning *) insert into u select * from r, d");
        assertThat(PostgresLexing.classification("with x as (select 1) update t set a = 1").queryKind())
                .isEqualTo(StatementKind.UPDATE);
        assertThat(PostgresLexing.classification("with x as (select 1) delete from t").queryKind()).isEqualTo(StatementKind.DELETE);
        assertThat(PostgresLexing.classification("with x as (select 1) merge into t using x on true when matched then delete")
                .queryKind()).isEqualTo(StatementKind.MERGE);
        assertThat(PostgresLexing.classification("with x as (select 1) (select * from x)").queryKind())
                .isEqualTo(StatementKind.SELECT);
        assertThat(PostgresLexing.classification("with recursive t(n) as (select 1 union all select n + 1 from t) "
                + "search depth first by n, n set ord cycle n set is_cycle using path select * from t").queryKind())
                .isEqualTo(StatementKind.SELECT);
    }

    @Test
    void withWithoutABody() {
        assertQuery("with x as (select 1)", StatementKind.WITH, StatementKind.WITH, true, "with x as (select 1)");
    }

    @Test
    void explainPointsAtTheExplainedQuery() {
        assertQuery("EXPLAIN (ANALYZE, BUFFERS) select * from t", StatementKind.EXPLAIN, StatementKind.SELECT, true,
                "select * from t");
        assertQuery("explain analyze verbose update t set a = 1", StatementKind.EXPLAIN, StatementKind.UPDATE, true,
                "update t set a = 1");
        assertQuery("explain select 1", StatementKind.EXPLAIN, StatementKind.SELECT, true, "select 1");
        assertQuery("explain analyse with x as (select 1) select * from x", StatementKind.EXPLAIN,
                StatementKind.SELECT, true, "with x as (select 1) select * from x");
        assertQuery("explain create table x as select 1", StatementKind.EXPLAIN, StatementKind.SELECT, true, "select 1");
        Classification execute = assertQuery("explain execute p(1)", StatementKind.EXPLAIN, StatementKind.EXECUTE,
                true, "");
        assertThat(execute.name()).contains("p");
    }

    @Test
    void createTableAs() {
        assertQuery("CREATE TEMP TABLE x (a, b) WITH (fillfactor = 70) AS SELECT a, b FROM t",
                StatementKind.CREATE_TABLE_AS, StatementKind.SELECT, true, "SELECT a, b FROM t");
        assertQuery("create unlogged table if not exists x as table t with data", StatementKind.CREATE_TABLE_AS,
                StatementKind.TABLE, true, "table t");
        assertQuery("create table x as select * from t with no data", StatementKind.CREATE_TABLE_AS,
                StatementKind.SELECT, false, "select * from t");
        assertQuery("create table x as execute p", StatementKind.CREATE_TABLE_AS, StatementKind.EXECUTE, true, "");
    }

    @Test
    void createTableWithoutAsIsDdl() {
        assertUtility("create table t (a int generated always as (b + 1) stored, b int)", StatementKind.UTILITY);
        assertUtility("create view v as select 1", StatementKind.UTILITY);
    }

    @Test
    void selectInto() {
        assertQuery("select a, b into temp new_t from t", StatementKind.SELECT_INTO, StatementKind.SELECT, true,
                "select a, b into temp new_t from t");
        assertQuery("with x as (insert into t values (1) returning *) select * into n from x",
                StatementKind.SELECT_INTO, StatementKind.SELECT, true,
                "with x as (insert into t values (1) returning *) select * into n from x");
    }

    @Test
    void materializedViews() {
        assertQuery("create materialized view mv using heap with (fillfactor = 50) as select * from t",
                StatementKind.CREATE_MATERIALIZED_VIEW, StatementKind.SELECT, true, "select * from t");
        assertQuery("create materialized view mv as select * from t with no data",
                StatementKind.CREATE_MATERIALIZED_VIEW, StatementKind.SELECT, false, "select * from t");
        Classification refresh = assertQuery("REFRESH MATERIALIZED VIEW CONCURRENTLY s.\"MV\"",
                StatementKind.REFRESH_MATERIALIZED_VIEW, StatementKind.REFRESH_MATERIALIZED_VIEW, true, "");
        assertThat(refresh.name()).contains("s.MV");
        assertQuery("refresh materialized view mv with no data", StatementKind.REFRESH_MATERIALIZED_VIEW,
                StatementKind.REFRESH_MATERIALIZED_VIEW, false, "");
    }

    @Test
    void declareCursor() {
        Classification c = assertQuery("DECLARE C1 binary no scroll cursor with hold for select * from t",
                StatementKind.DECLARE_CURSOR, StatementKind.SELECT, true, "select * from t");
        assertThat(c.name()).contains("c1");
    }

    @Test
    void copyOfAQuery() {
        assertQuery("copy (select * from t where a = 1) to stdout with (format csv)", StatementKind.COPY_QUERY,
                StatementKind.SELECT, true, "select * from t where a = 1");
        assertQuery("copy (delete from t returning *) to '/tmp/x'", StatementKind.COPY_QUERY, StatementKind.DELETE,
                true, "delete from t returning *");
        assertUtility("copy t to stdout", StatementKind.UTILITY);
        assertUtility("copy t (a, b) from stdin", StatementKind.UTILITY);
    }

    @Test
    void prepareAndExecute() {
        Classification prepare = assertQuery("PREPARE Q1 (int, text) AS select * from t where a = $1",
                StatementKind.PREPARE, StatementKind.SELECT, false, "select * from t where a = $1");
        assertThat(prepare.name()).contains("q1");
        assertQuery("prepare q as insert into t values ($1)", StatementKind.PREPARE, StatementKind.INSERT, false,
                "insert into t values ($1)");
        Classification execute = assertQuery("execute \"Q1\"(1, 'a')", StatementKind.EXECUTE, StatementKind.EXECUTE,
                true, "");
        assertThat(execute.name()).contains("Q1");
        assertUtility("prepare transaction 'x'", StatementKind.PREPARE_TRANSACTION);
    }

    @Test
    void settings() {
        assertUtility("set work_mem = '64MB'", StatementKind.SET);
        assertUtility("reset all", StatementKind.RESET);
        assertUtility("show join_collapse_limit", StatementKind.SHOW);
    }

    @Test
    void transactionControl() {
        assertUtility("begin", StatementKind.BEGIN);
        assertUtility("BEGIN ISOLATION LEVEL SERIALIZABLE", StatementKind.BEGIN);
        assertUtility("start transaction read only", StatementKind.BEGIN);
        assertUtility("commit", StatementKind.COMMIT);
        assertUtility("end transaction", StatementKind.COMMIT);
        assertUtility("commit and chain", StatementKind.COMMIT);
        assertUtility("rollback", StatementKind.ROLLBACK);
        assertUtility("abort", StatementKind.ROLLBACK);
        assertUtility("savepoint s1", StatementKind.SAVEPOINT);
        assertUtility("release savepoint s1", StatementKind.RELEASE_SAVEPOINT);
        assertUtility("release s1", StatementKind.RELEASE_SAVEPOINT);
        assertUtility("rollback to savepoint s1", StatementKind.ROLLBACK_TO_SAVEPOINT);
        assertUtility("ROLLBACK WORK TO s1", StatementKind.ROLLBACK_TO_SAVEPOINT);
        assertUtility("commit prepared 'x'", StatementKind.UTILITY);
        assertUtility("rollback prepared 'x'", StatementKind.UTILITY);
        assertThat(PostgresLexing.classification("rollback to savepoint S1").name()).contains("s1");
        assertThat(StatementKind.ROLLBACK_TO_SAVEPOINT.isTransactionControl()).isTrue();
        assertThat(StatementKind.SELECT.isTransactionControl()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"vacuum t", "analyze t", "create index on t (a)", "drop table t",
            "call p(1)", "listen x", "alter table t add column c int", "grant select on t to u", "lock table t",
            "truncate t", "fetch next from c", "close c", "discard all", "checkpoint", "(1)", "'x'", "$1", "("})
    void everythingElseIsUtility(String sql) {
        assertUtility(sql, StatementKind.UTILITY);
    }

    /** DO's body is planned while it runs; the estimator reads the body itself. */
    @Test
    void doBlocks() {
        assertQuery("do $$ begin end $$", StatementKind.DO, StatementKind.DO, true, "");
        assertQuery("DO LANGUAGE plpgsql 'begin null; end'", StatementKind.DO, StatementKind.DO, true, "");
    }

    @Test
    void emptyStatement() {
        assertUtility("", StatementKind.EMPTY);
        assertUtility("-- nothing", StatementKind.EMPTY);
        assertThat(PostgresLexing.classification("").name()).isEqualTo(Optional.empty());
    }

    @Test
    void deeplyNestedWrappersAreBounded() {
        String sql = "explain ".repeat(10_000) + "select 1";
        Classification c = PostgresLexing.classification(sql);
        assertThat(c.kind()).isEqualTo(StatementKind.EXPLAIN);
        assertThat(c.isPlanned()).isFalse();
    }
}
