package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The relation bound is exact for simple shapes and never below the relations a query names. "True" counts
 * in the comments are the relations the text names (base tables, CTE references, functions and VALUES in
 * FROM); where the bound is higher the comment says why.
 */
class RelationBoundTest {

    private static int bound(String sql) {
        return PostgresLexing.bound(sql).relations();
    }

    @ParameterizedTest
    @ValueSource(strings = {"select 1", "select * from t where id = $1", "insert into t values (1)", "show work_mem",
            "begin", "select now()", "update t set a = 1 where id = 2", "delete from t where id = 1",
            "select extract(year from now())", "select substring('abc' from 2 for 1)", "select trim(both from 'x')",
            "select * from t where a is distinct from b", "select * from t where a is not distinct from b",
            "select * from t for update", "table t", "values (1), (2)", "set join_collapse_limit = 1",
            "select * from generate_series(1, 10) g", "select count(*), sum(x) filter (where y > 0) from t",
            "create table t (a int, b int)", "insert into t (a, b) values (1, 2) on conflict (a) do update set b = 2"})
    void trivialStatementsHaveAtMostOneRelation(String sql) {
        assertThat(PostgresLexing.bound(sql).atMostOneRelation()).as(sql).isTrue();
    }

    @Test
    void starJoinOfTwentyTablesWithExplicitJoins() {
        String sql = "select * from fact f" + IntStream.rangeClosed(1, 19)
                .mapToObj(i -> " join dim" + i + " d" + i + " on d" + i + ".id = f.dim" + i + "_id")
                .collect(Collectors.joining()) + " where f.x > 0";
        assertThat(bound(sql)).isEqualTo(20);
    }

    @Test
    void fromListOfTwelveTables() {
        String sql = "select * from " + IntStream.rangeClosed(1, 12).mapToObj(i -> "t" + i)
                .collect(Collectors.joining(", ")) + " where t1.id = t2.id group by a, b, c order by d, e limit 5";
        assertThat(bound(sql)).isEqualTo(12);
    }

    @Test
    void joinsOfAllKindsAndNestedJoinTrees() {
        assertThat(bound("select * from a left outer join b using (id, k) natural join c cross join d")).isEqualTo(4);
        assertThat(bound("select * from (a join b on a.x = b.x) join (c join d on c.y = d.y) on a.z = c.z"))
                .isEqualTo(4);
        assertThat(bound("select * from a join b on a.x = b.x and b.y in (1, 2), c, d")).isEqualTo(4);
        assertThat(bound("select * from a, lateral (select * from b where b.id = a.id) s")).isEqualTo(3); // 2 + s
    }

    @Test
    void subQueriesCountTheirOwnRelations() {
        assertThat(bound("select * from a where a.id in (select id from b, c where b.x = c.x) "
                + "and exists (select 1 from d where d.id = a.id)")).isEqualTo(4);
        assertThat(bound("select (select max(x) from b), y from a")).isEqualTo(2);
        // the derived table counts as an item of the outer FROM as well as its two relations
        assertThat(bound("select * from (select * from b, c) s, d")).isEqualTo(4);
    }

    @Test
    void commonTableExpressionsCountTheirBodiesAndEachReference() {
        assertThat(bound("with x as (select * from a join b on a.id = b.id), y as (select * from c) "
                + "select * from x, y, x x2")).isEqualTo(6);
        assertThat(bound("with recursive r(n) as (values (1) union all select n + 1 from r where n < 10) "
                + "select * from r")).isEqualTo(2);
    }

    @Test
    void setOperationsAddTheirBranches() {
        assertThat(bound("select a from t1, t2 union all select b from t3 except select c from t4 join t5 on true"))
                .isEqualTo(5);
    }

    @Test
    void functionsAndValuesInFromAreRelations() {
        assertThat(bound("select * from generate_series(1, 3) g, unnest(array[1, 2]) u, "
                + "(values (1, 2), (3, 4)) v(a, b), rows from (f(1), g(2)) r")).isEqualTo(4);
        assertThat(bound("select * from t, json_table(t.j, '$[*]' columns (a int path '$.a', b int path '$.b')) jt"))
                .isEqualTo(2);
    }

    @Test
    void updateWithFrom() {
        assertThat(bound("update t set a = s.a, b = s.b from s, u where t.id = s.id and s.k = u.k returning t.a, t.b"))
                .isEqualTo(3);
    }

    @Test
    void deleteWithUsing() {
        assertThat(bound("delete from t using s, u where t.id = s.id")).isEqualTo(3);
        assertThat(bound("delete from t using s join u using (id) where t.id = s.id")).isEqualTo(3);
        assertThat(bound("delete from only t where id in (select id from s)")).isEqualTo(2);
    }

    @Test
    void insertSelect() {
        assertThat(bound("insert into t (a, b) select x.a, y.b from x join y on x.id = y.id")).isEqualTo(3);
        assertThat(bound("insert into t select * from s on conflict (id) do update set a = excluded.a, b = 1"))
                .isEqualTo(2);
    }

    @Test
    void merge() {
        assertThat(bound("""
                merge into t using s on t.id = s.id
                when matched and s.del then delete
                when matched then update set a = s.a, b = s.b
                when not matched then insert (id, a, b) values (s.id, s.a, s.b)""")).isEqualTo(2);
        assertThat(bound("merge into t using (select * from a join b on a.id = b.id) s on t.id = s.id "
                + "when matched then do nothing")).isEqualTo(4); // t, s, a, b: the derived table counts itself
    }

    @Test
    void dmlInsideCtes() {
        assertThat(bound("with d as (delete from t where x returning *) insert into u select * from d")).isEqualTo(3);
    }

    @Test
    void wrappersCountTheirQuery() {
        assertThat(bound("explain (analyze, buffers) select * from a, b")).isEqualTo(2);
        assertThat(bound("create table x as select * from a join b on a.id = b.id")).isEqualTo(2);
        assertThat(bound("create table x as table a")).isEqualTo(1);
        assertThat(bound("copy (select * from a, b) to stdout")).isEqualTo(2);
        assertThat(bound("declare c cursor for select * from a, b, c")).isEqualTo(3);
        assertThat(bound("select * from a union table b")).isEqualTo(2);
    }

    @Test
    void commasOutsideFromAreNotRelations() {
        assertThat(bound("select a, b, c, f(x, y) from t where z in (1, 2, 3) group by a, b order by c, a"))
                .isEqualTo(1);
        assertThat(bound("select a from t window w as (partition by a, b) order by a, b")).isEqualTo(1);
        assertThat(bound("select percentile_cont(0.5) within group (order by x) from a, b")).isEqualTo(2);
    }

    @Test
    void keywordsUsedAsNamesDoNotHideRelations() {
        // unreserved key words may be column names and aliases; after a dot any word is a name
        assertThat(bound("select delete from t")).isEqualTo(1);
        assertThat(bound("select rows from t, u")).isEqualTo(2);
        assertThat(bound("select rows from")).isEqualTo(1);
        assertThat(bound("select * from a join b on a.where = b.x, c")).isEqualTo(3);
        assertThat(bound("select * from a set, b")).isEqualTo(2);
        assertThat(bound("select * from a join b on a.set = b.set, c")).isEqualTo(3);
        assertThat(bound("select t.from, t.table, t.join from t")).isEqualTo(1);
        assertThat(bound("update set set set = 1 from a, b")).isEqualTo(3);
    }

    @Test
    void nestingDepthCountsParenthesesAndBrackets() {
        assertThat(PostgresLexing.bound("select 1").maxNestingDepth()).isZero();
        assertThat(PostgresLexing.bound("select ((1)), a[(2)]").maxNestingDepth()).isEqualTo(2);
        assertThat(PostgresLexing.bound("select " + "(".repeat(1000) + "1" + ")".repeat(1000)).maxNestingDepth())
                .isEqualTo(1000);
        assertThat(PostgresLexing.bound("select ))) (").maxNestingDepth()).isEqualTo(1);
    }
}
