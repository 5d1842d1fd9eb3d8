package io.memogate.estimator.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.lexer.LexicalAnalysis;
import io.memogate.estimator.lexer.StatementAnalysis;
import io.memogate.estimator.lexer.StatementKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** T-SQL batches split into the statements SQL Server runs: by semicolons, by the words that start one, at GO. */
class TsqlBatchTest {

    private static List<String> statements(String batch) {
        LexicalAnalysis analysis = TsqlLexicalRules.analyzer().analyze(batch);
        return analysis.statements().stream()
                .map(st -> batch.substring(st.span().start(), st.span().end()).replaceAll("\\s+", " ")).toList();
    }

    @Test
    void statementsOnLinesOfTheirOwnAreSeveral() {
        assertThat(statements("""
                DECLARE @since datetime2 = DATEADD(day, -7, SYSUTCDATETIME())
                SELECT o.id FROM dbo.Orders o JOIN dbo.Customers c ON c.id = o.customer_id WHERE o.created > @since
                UPDATE dbo.Stats SET runs = runs + 1
                SELECT 1 SELECT 2""")).containsExactly(
                "DECLARE @since datetime2 = DATEADD(day, -7, SYSUTCDATETIME())",
                "SELECT o.id FROM dbo.Orders o JOIN dbo.Customers c ON c.id = o.customer_id WHERE o.created > @since",
                "UPDATE dbo.Stats SET runs = runs + 1", "SELECT 1", "SELECT 2");
    }

    @Test
    void goLinesAndSemicolonsSeparateToo() {
        assertThat(statements("SELECT a FROM t;\nGO\nSELECT b FROM u\ngo\nDELETE FROM v;"))
                .containsExactly("SELECT a FROM t", "SELECT b FROM u", "DELETE FROM v");
        assertThat(statements("SET NOCOUNT ON\nSET XACT_ABORT ON\nSELECT 1"))
                .containsExactly("SET NOCOUNT ON", "SET XACT_ABORT ON", "SELECT 1");
    }

    @Test
    void wordsThatBelongToTheStatementDoNotSplitIt() {
        assertThat(statements("""
                INSERT INTO #t (id) SELECT id FROM a UNION ALL SELECT id FROM b
                UPDATE t SET x = CASE WHEN y = 1 THEN 2 ELSE 3 END FROM t INNER MERGE JOIN u ON u.id = t.id
                DECLARE c CURSOR FOR SELECT id FROM t FOR UPDATE OF x
                ALTER TABLE d ADD CONSTRAINT fk FOREIGN KEY (a) REFERENCES e (a) ON DELETE SET NULL
                MERGE s USING u ON s.id = u.id WHEN MATCHED THEN UPDATE SET s.x = u.x WHEN NOT MATCHED THEN INSERT (id) VALUES (u.id);
                INSERT INTO #r EXEC dbo.report
                SELECT 1""")).containsExactly(
                "INSERT INTO #t (id) SELECT id FROM a UNION ALL SELECT id FROM b",
                "UPDATE t SET x = CASE WHEN y = 1 THEN 2 ELSE 3 END FROM t INNER MERGE JOIN u ON u.id = t.id",
                "DECLARE c CURSOR FOR SELECT id FROM t FOR UPDATE OF x",
                "ALTER TABLE d ADD CONSTRAINT fk FOREIGN KEY (a) REFERENCES e (a) ON DELETE SET NULL",
                "MERGE s USING u ON s.id = u.id WHEN MATCHED THEN UPDATE SET s.x = u.x WHEN NOT MATCHED THEN INSERT (id)"
                        + " VALUES (u.id)",
                "INSERT INTO #r EXEC dbo.report", "SELECT 1");
    }

    @Test
    void aCteStartsAtItsWithAndControlOfFlowSplitsAroundItsStatements() {
        assertThat(statements("""
                WITH c AS (SELECT id FROM t) SELECT * FROM c JOIN u ON u.id = c.id;
                IF EXISTS (SELECT 1 FROM t WHERE id = 1)
                BEGIN
                  SELECT a.x FROM a JOIN b ON b.id = a.id
                END
                ELSE
                  SELECT 0""")).containsExactly("WITH c AS (SELECT id FROM t) SELECT * FROM c JOIN u ON u.id = c.id",
                "IF EXISTS (SELECT 1 FROM t WHERE id = 1)", "BEGIN", "SELECT a.x FROM a JOIN b ON b.id = a.id", "END",
                "ELSE", "SELECT 0");
    }

    @Test
    void aProcedureRunsToItsGoSemicolonsIncluded() {
        List<String> statements = statements("""
                CREATE OR ALTER PROCEDURE dbo.p AS
                BEGIN
                  SET NOCOUNT ON;
                  SELECT a.x FROM a JOIN b ON b.id = a.id;
                END
                GO
                EXEC dbo.p""");
        assertThat(statements).hasSize(2);
        assertThat(statements.get(0)).startsWith("CREATE OR ALTER PROCEDURE").endsWith("END");
        assertThat(statements.get(1)).isEqualTo("EXEC dbo.p");
    }

    @Test
    void bracketsQuoteNamesAndParametersAndTempTablesAreNames() {
        LexicalAnalysis analysis = TsqlLexicalRules.analyzer().analyze(
                "SELECT [a]]b].[select] FROM [my table] JOIN #t ON #t.id = [my table].id WHERE x = @P0 /* a /* nested */ comment */");
        assertThat(analysis.statements()).singleElement().satisfies(st -> {
            assertThat(st.kind()).isEqualTo(StatementKind.SELECT);
            assertThat(st.relations()).isEqualTo(2);
        });
        StatementAnalysis st = analysis.statements().getFirst();
        assertThat(st.fingerprint().text()).doesNotContain("comment").contains("[my table]");
    }
}
