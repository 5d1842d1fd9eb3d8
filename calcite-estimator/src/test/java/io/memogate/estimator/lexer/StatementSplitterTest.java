package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatementSplitterTest {

    private static List<String> statements(String sql) {
        return PostgresLexing.split(sql).statements().stream().map(s -> s.of(sql)).toList();
    }

    private static int empty(String sql) {
        return PostgresLexing.split(sql).emptyStatements();
    }

    @Test
    void splitsAtTopLevelSemicolons() {
        assertThat(statements("select 1; select 2;select 3")).containsExactly("select 1", "select 2", "select 3");
    }

    @Test
    void spansExcludeSurroundingWhitespaceCommentsAndTheSemicolon() {
        String sql = "  -- first\n  select 1 /* inner */ + 2  ;\n\n/* lead */ select 3 -- trail\n";
        List<StatementSpan> spans = PostgresLexing.split(sql).statements();
        assertThat(spans).hasSize(2);
        assertThat(spans.get(0).of(sql)).isEqualTo("select 1 /* inner */ + 2");
        assertThat(spans.get(0).start()).isEqualTo(sql.indexOf("select 1"));
        assertThat(spans.get(1).of(sql)).isEqualTo("select 3");
    }

    @Test
    void semicolonsInStringsQuotedIdentifiersCommentsAndDollarQuotesDoNotSplit() {
        assertThat(statements("select ';', \";\", $$;$$, $f$ a; b $f$, E'\\';' -- ;\n; /* ; */ select 2"))
                .containsExactly("select ';', \";\", $$;$$, $f$ a; b $f$, E'\\';'", "select 2");
    }

    @Test
    void semicolonsInParenthesesDoNotSplit() {
        assertThat(statements("select (1; 2); select 3")).containsExactly("select (1; 2)", "select 3");
    }

    @Test
    void functionBodiesWithDollarQuotesStayWhole() {
        String create = "create function f() returns int language plpgsql as $$ begin return 1; end $$";
        assertThat(statements(create + "; select f()")).containsExactly(create, "select f()");
    }

    @Test
    void sqlStandardFunctionBodiesStayWhole() {
        String create = """
                CREATE OR REPLACE FUNCTION f(a int) RETURNS int LANGUAGE sql
                BEGIN ATOMIC
                  SELECT CASE WHEN a > 0 THEN 1 ELSE 0 END;
                  INSERT INTO log VALUES (a);
                END""";
        assertThat(statements(create + ";\nselect f(1);")).containsExactly(create, "select f(1)");
        String procedure = "create procedure p() begin atomic insert into t values (1); delete from t; end";
        assertThat(statements(procedure + "; call p()")).containsExactly(procedure, "call p()");
    }

    @Test
    void beginOutsideAFunctionDefinitionIsATransaction() {
        assertThat(statements("begin; select 1; end;")).containsExactly("begin", "select 1", "end");
        assertThat(statements("create table begin_log (x int); select 1"))
                .containsExactly("create table begin_log (x int)", "select 1");
    }

    @Test
    void emptyStatementsAreDroppedButCounted() {
        assertThat(statements(";; select 1;; -- c\n; /* d */")).containsExactly("select 1");
        assertThat(empty(";; select 1;; -- c\n; /* d */")).isEqualTo(4);
        assertThat(empty("select 1;")).isZero();
        assertThat(empty("select 1")).isZero();
    }

    @Test
    void aTextWithoutTokensIsOneEmptyStatement() {
        assertThat(statements("")).isEmpty();
        assertThat(empty("")).isEqualTo(1);
        assertThat(empty("  -- only a comment")).isEqualTo(1);
        assertThat(empty(";")).isEqualTo(1);
    }

    @Test
    void anUnterminatedQuoteSwallowsTheRest() {
        assertThat(statements("select 'a; select 2")).containsExactly("select 'a; select 2");
        assertThat(statements("select 1; select /* x; select 3")).containsExactly("select 1", "select /* x; select 3");
    }
}
