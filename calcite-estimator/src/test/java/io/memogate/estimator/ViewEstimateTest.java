package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.ViewDefinitions.View;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.postgres.PlannerSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Views expanded as PostgreSQL's rewriter expands them: the definitions below are what PostgreSQL 15's
 * {@code pg_get_viewdef} printed for them (parenthesized joins, casts, a trailing semicolon).
 */
class ViewEstimateTest {

    /** f joined to da, db and (left) dc: four relations. */
    private static final View V1 = new View("v1", """
             SELECT f.id,
                da.name AS a_name,
                db.name,
                (dc.kind)::text AS k,
                (f.amount * (2)::numeric) AS dbl
               FROM (((f
                 JOIN da ON ((f.a = da.id)))
                 JOIN db ON ((f.b = db.id)))
                 LEFT JOIN dc ON ((f.c = dc.id)))
              WHERE ((f.day > '2020-01-01'::date) AND ((dc.kind)::text = ANY ((ARRAY['x'::character varying,\
             'y'::character varying])::text[])));""", false);
    /** v1 and one more table. */
    private static final View V2 = new View("v2", """
             SELECT v1.id,
                v1.a_name,
                v1.name,
                v1.k,
                v1.dbl,
                dx.id AS xid
               FROM v1,
                dx
              WHERE (v1.id = dx.id);""", false);
    /** v1 grouped: planned apart, one relation to its user. */
    private static final View V3 = new View("v3", """
             SELECT v1.a_name,
                count(*) AS count
               FROM v1
              GROUP BY v1.a_name;""", false);
    /** A security barrier over two tables. */
    private static final View V4 = new View("v4", """
             SELECT f.id
               FROM f,
                da
              WHERE (f.a = da.id);""", true);

    private final CompileEstimator estimator = new CompileEstimator();
    private final Catalog catalog = new Catalog(IndexedColumns.NONE, ViewDefinitions.of(List.of(V1, V2, V3, V4)));

    @Test
    void aViewIsItsQueryPulledUpIntoTheStatement() {
        String statement = "SELECT * FROM v1";
        assertThat(estimate(statement, Catalog.NONE).bypass()).as("one relation by its text").isTrue();

        CompileEstimate expanded = estimate(statement, catalog);
        assertThat(expanded.bypass()).isFalse();
        assertThat(expanded.largestProblem()).isEqualTo(4);
        assertThat(expanded.reason()).contains("1 view(s) expanded");
        // Written out as a sub-select, it is the same problem; the bytes differ by the tokens around the view's
        // query: its parentheses.
        CompileEstimate written = estimate("SELECT * FROM (" + body(V1) + ") v1", Catalog.NONE);
        assertThat(expanded.memoPairs()).isEqualTo(written.memoPairs());
        assertThat(expanded.terms()).usingRecursiveComparison().ignoringFields("tokens").isEqualTo(written.terms());
        assertThat(written.terms().tokens() - expanded.terms().tokens()).isEqualTo(2);
    }

    @Test
    void aViewJoinsTheStatementsOtherRelations() {
        CompileEstimate e = estimate("SELECT * FROM v1 JOIN g ON g.id = v1.id, h WHERE h.x = v1.a_name", catalog);
        assertThat(e.largestProblem()).isEqualTo(6);
        assertThat(e.blocks()).isEqualTo(1);
    }

    @Test
    void viewsInsideViewsAreExpanded() {
        CompileEstimate e = estimate("select count(*) from V2", catalog);
        assertThat(e.largestProblem()).as("f, da, db, dc of v1, and dx").isEqualTo(5);
        assertThat(e.reason()).contains("2 view(s) expanded");
    }

    @Test
    void aGroupedViewIsPlannedApart() {
        CompileEstimate e = estimate("SELECT * FROM v3, g WHERE g.name = v3.a_name", catalog);
        assertThat(e.blocks()).isEqualTo(2);
        assertThat(e.largestProblem()).as("v1's four relations, in their own block").isEqualTo(4);
    }

    @Test
    void aSecurityBarrierIsNeverPulledUp() {
        CompileEstimate barrier = estimate("SELECT * FROM v4, g, h WHERE g.id = v4.id AND h.id = g.id", catalog);
        assertThat(barrier.blocks()).isEqualTo(2);
        assertThat(barrier.largestProblem()).as("v4, g and h; f and da apart").isEqualTo(3);

        Catalog plain = new Catalog(IndexedColumns.NONE,
                ViewDefinitions.of(List.of(new View("v4", V4.definition(), false))));
        CompileEstimate pulledUp = estimate("SELECT * FROM v4, g, h WHERE g.id = v4.id AND h.id = g.id", plain);
        assertThat(pulledUp.blocks()).isEqualTo(1);
        assertThat(pulledUp.largestProblem()).isEqualTo(4);
    }

    /** A view's query sees none of the statement's CTEs: its tables stay tables though a CTE shares a name. */
    @Test
    void aStatementsCteIsNotSeenInsideAView() {
        Catalog abc = new Catalog(IndexedColumns.NONE, ViewDefinitions.of(List.of(new View("v",
                "SELECT a.id FROM a JOIN b ON a.id = b.id JOIN c ON c.id = b.id", false))));
        CompileEstimate plain = estimate("SELECT * FROM v", abc);
        CompileEstimate withCte = estimate("WITH a AS (SELECT x1.id FROM x1 JOIN x2 ON x1.id = x2.id JOIN x3 ON"
                + " x3.id = x2.id JOIN x4 ON x4.id = x3.id) SELECT * FROM v", abc);
        assertThat(withCte.largestProblem()).isEqualTo(3);
        assertThat(withCte.memoPairs()).isEqualTo(plain.memoPairs());
        CompileEstimate materialized = estimate("WITH b AS MATERIALIZED (SELECT 1) SELECT * FROM v", abc);
        assertThat(materialized.largestProblem()).as("the view's b is its table").isEqualTo(3);
    }

    /** Two schemas' views of one name, one over the other: the inner name is the other schema's view. */
    @Test
    void aViewNamingItsOwnNameStopsThere() {
        Catalog selfNamed = new Catalog(IndexedColumns.NONE, ViewDefinitions.of(List.of(
                new View("s", "SELECT s.id FROM other.s s, t WHERE s.id = t.id", false))));
        CompileEstimate e = estimate("SELECT * FROM s", selfNamed);
        assertThat(e.largestProblem()).isEqualTo(2);
        assertThat(e.reason()).contains("1 view(s) expanded");
    }

    /** Each view names the one below twice: expansion stops at the cap, not after 2^30 copies. */
    @Test
    void aDoublingChainOfViewsIsCapped() {
        List<View> chain = new ArrayList<>(List.of(new View("w0", "SELECT a.id FROM a, b WHERE a.id = b.id", false)));
        for (int i = 1; i <= 30; i++) {
            chain.add(new View("w" + i, "SELECT x.id FROM w" + (i - 1) + " x, w" + (i - 1) + " y WHERE x.id = y.id",
                    false));
        }
        CompileEstimate e = estimate("SELECT * FROM w30",
                new Catalog(IndexedColumns.NONE, ViewDefinitions.of(chain)));
        assertThat(e.bypass()).isFalse();
        assertThat(e.reason()).contains("256 view(s) expanded");
    }

    /** A definition Calcite cannot read is read off its tokens, and planned as a block of its own. */
    @Test
    void anUnreadableDefinitionStillCountsItsJoins() {
        String tables = IntStream.rangeClosed(1, 8).mapToObj(i -> "t" + i).collect(Collectors.joining(", "));
        Catalog odd = new Catalog(IndexedColumns.NONE, ViewDefinitions.of(List.of(
                new View("odd", "SELECT t1.id FROM " + tables + " WHERE t1.x OPERATOR(pg_catalog.@@@) t2.y;", false))));
        CompileEstimate e = estimate("SELECT * FROM odd", odd);
        assertThat(e.bypass()).isFalse();
        assertThat(e.largestProblem()).isEqualTo(8);
        assertThat(e.reason()).contains("1 definition(s) Calcite could not read");
    }

    @Test
    void aStatementNamingNoViewStillBypasses() {
        assertThat(estimate("SELECT * FROM f WHERE id = 1", catalog).bypass()).isTrue();
        assertThat(estimate("SELECT 'v1' FROM f", catalog).bypass()).as("a constant names no view").isTrue();
        assertThat(estimate("SELECT * FROM \"v1\"", catalog).bypass()).isFalse();
    }

    /** The cache keys on the catalog's instances: a new read of the views is estimated anew. */
    @Test
    void estimatesFollowANewReadOfTheViews() {
        Catalog before = new Catalog(IndexedColumns.NONE, ViewDefinitions.of(List.of(
                new View("v", "SELECT a.id FROM a, b WHERE a.id = b.id", false))));
        Catalog after = new Catalog(IndexedColumns.NONE, ViewDefinitions.of(List.of(
                new View("v", "SELECT a.id FROM a, b, c WHERE a.id = b.id AND b.id = c.id", false))));
        assertThat(estimate("SELECT * FROM v", before).largestProblem()).isEqualTo(2);
        assertThat(estimate("SELECT * FROM v", after).largestProblem()).isEqualTo(3);
        assertThat(estimate("SELECT * FROM v", before).largestProblem()).isEqualTo(2);
    }

    /** A materialized view is a table in FROM; REFRESH plans its query, as the catalog holds it. */
    @Test
    void aRefreshPlansTheMaterializedViewsQuery() {
        Catalog withMv = new Catalog(IndexedColumns.NONE, ViewDefinitions.of(List.of(
                new View("mv", V1.definition(), false, true))));
        assertThat(estimate("REFRESH MATERIALIZED VIEW mv", Catalog.NONE).bypass()).as("no catalog").isTrue();

        CompileEstimate refresh = estimate("refresh materialized view concurrently public.MV", withMv);
        assertThat(refresh.bypass()).isFalse();
        assertThat(refresh.largestProblem()).isEqualTo(4);
        assertThat(refresh.reason()).startsWith("REFRESH MATERIALIZED VIEW public.mv: parsed by Calcite");
        assertThat(estimate("REFRESH MATERIALIZED VIEW mv WITH NO DATA", withMv).bypass()).as("plans nothing")
                .isTrue();
        assertThat(estimate("SELECT * FROM mv", withMv).bypass()).as("a table in FROM").isTrue();
        assertThat(estimate("SELECT * FROM mv, g WHERE mv.id = g.id", withMv).largestProblem()).isEqualTo(2);
    }

    @Test
    void aQualifiedNameFindsItsSchemasViewAndAnUnqualifiedOneTheLongest() {
        ViewDefinitions views = ViewDefinitions.of(List.of(
                new View("audit", "users", "SELECT 1", false, false),
                new View("public", "users", "SELECT a.id FROM a JOIN b ON a.id = b.id", false, false)));
        assertThat(views.size()).isEqualTo(2);
        assertThat(views.view("users")).map(View::schema).hasValue("public");
        assertThat(views.view(Optional.of("audit"), "users")).map(View::schema).hasValue("audit");
        assertThat(views.view(Optional.of("sales"), "users")).as("a table of that name there").isEmpty();
        assertThat(views.view("USERS")).as("a quoted name is as written").isEmpty();
        assertThat(ViewDefinitions.of(List.of())).isSameAs(ViewDefinitions.NONE);
        assertThat(Catalog.of(IndexedColumns.of(Map.of("t", Set.of("id")))).views()).isSameAs(ViewDefinitions.NONE);

        Catalog catalog = new Catalog(IndexedColumns.NONE, views);
        assertThat(estimate("SELECT * FROM users", catalog).largestProblem()).isEqualTo(2);
        assertThat(estimate("SELECT * FROM sales.users", catalog).reason()).as("sales.users is a table")
                .doesNotContain("view(s) expanded");
        assertThat(estimate("SELECT * FROM \"USERS\"", catalog).bypass()).as("another relation").isTrue();
        assertThat(estimate("SELECT * FROM USERS", catalog).largestProblem()).as("folded: users").isEqualTo(2);
    }

    /** A catalog read again that found nothing new says so, so its reader can keep the instance it had. */
    @Test
    void catalogsWithTheSameDefinitionsHaveTheSameContent() {
        Catalog one = new Catalog(IndexedColumns.of(Map.of("f", Set.of("a"))), ViewDefinitions.of(List.of(V1, V2)),
                FunctionDefinitions.of(List.of(new FunctionDefinitions.Function("f", 1, "SELECT 1"))));
        Catalog again = new Catalog(IndexedColumns.of(Map.of("f", Set.of("a"))), ViewDefinitions.of(List.of(V1, V2)),
                FunctionDefinitions.of(List.of(new FunctionDefinitions.Function("f", 1, "SELECT 1"))));
        assertThat(one.sameContent(again)).isTrue();
        assertThat(one).as("still two catalogs to the caches").isNotEqualTo(again);
        assertThat(one.sameContent(new Catalog(one.indexes(), ViewDefinitions.of(List.of(V1)), one.functions())))
                .isFalse();
        assertThat(one.sameContent(new Catalog(one.indexes(), one.views(), FunctionDefinitions.NONE))).isFalse();
    }

    private static String body(View view) {
        String d = view.definition().strip();
        return d.substring(0, d.length() - 1);
    }

    private CompileEstimate estimate(String sql, Catalog with) {
        return estimator.estimate(sql, PlannerSettings.DEFAULTS, PreparedStatementTexts.NONE, with);
    }
}
