package io.memogate.estimator.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.lexer.StatementAnalysis;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The measurement the T-SQL parse path was chosen by: how many statements of a corpus of T-SQL as SQL Server
 * receives it (src/test/resources/tsql/corpus.sql: the 22 TPC-H queries in their SQL Server form, Join Order
 * Benchmark and TPC-DS-like joins, mssql-jdbc's sp_executesql texts, Entity Framework's output, hints, OPTION,
 * temporary tables, SELECT INTO, MERGE, T-SQL's functions) each parser reads: Calcite's Babel parser on the
 * text as written (with T-SQL's bracket quoting), JSqlParser (a parser made for T-SQL among others, with its
 * square-bracket quoting on), and Babel after {@link TsqlRewriter}. The counts and each statement's join search
 * are printed for bench/RESULTS.md; the test holds the choice: the rewriter's path reads every statement, so
 * every one that joins is estimated from its join structure.
 */
class TsqlCorpusTest {

    private static final SqlServerDialect DIALECT = new SqlServerDialect();
    private static List<String> corpus;

    @BeforeAll
    static void read() throws IOException {
        String text;
        try (InputStream in = TsqlCorpusTest.class.getResourceAsStream("/tsql/corpus.sql")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        corpus = new ArrayList<>();
        for (StatementAnalysis st : DIALECT.analyzer().analyze(text).statements()) {
            corpus.add(text.substring(st.span().start(), st.span().end()));
        }
    }

    @Test
    void theCorpusSplitsIntoItsStatements() {
        assertThat(corpus).hasSize(46);
        assertThat(corpus).filteredOn(sql -> sql.startsWith("MERGE")).singleElement().asString()
                .endsWith("VALUES (s.id, s.qty)");
    }

    @Test
    void calciteAfterTheRewriterReadsEveryStatementAndMoreThanEitherParserAlone() {
        int calcite = read(TsqlCorpusTest::calciteParses);
        int jsqlparser = read(TsqlCorpusTest::jsqlparserParses);
        int rewritten = read(sql -> DIALECT.parses(DIALECT.rewriter().rewrite(sql).text()));
        System.out.printf("T-SQL corpus of %d statements read by: Calcite Babel %d, JSqlParser %d, "
                + "TsqlRewriter + Calcite Babel %d%n", corpus.size(), calcite, jsqlparser, rewritten);
        List<String> unread = corpus.stream().filter(sql -> !DIALECT.parses(DIALECT.rewriter().rewrite(sql).text()))
                .map(sql -> DIALECT.rewriter().rewrite(sql).text()).toList();
        assertThat(unread).isEmpty();
        assertThat(rewritten).isGreaterThan(jsqlparser).isGreaterThan(calcite);
    }

    @Test
    void everyStatementThatJoinsIsEstimatedFromCalcitesTree() {
        CompileEstimator estimator = new CompileEstimator(DIALECT);
        List<String> lexical = new ArrayList<>();
        for (String sql : corpus) {
            CompileEstimate e = estimator.estimate(sql, null);
            System.out.printf(Locale.ROOT, "%-60.60s | largest search %2d tables, %5.1f alternatives explored | %,d bytes%n",
                    sql.replaceAll("\\s+", " "), e.largestProblem(), e.terms().joinPairs(), e.estimatedBytes());
            if (!e.bypass() && e.parser() != CompileEstimate.Parser.CALCITE) {
                lexical.add(sql + " -> " + e.reason());
            }
        }
        assertThat(lexical).isEmpty();
    }

    private static int read(Predicate<String> parser) {
        return (int) corpus.stream().filter(parser).count();
    }

    private static boolean calciteParses(String sql) {
        try {
            SqlParser.create(sql, DIALECT.parserConfig().withQuoting(Quoting.BRACKET)).parseStmt();
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean jsqlparserParses(String sql) {
        try {
            CCJSqlParserUtil.parse(sql, parser -> parser.withSquareBracketQuotation(true));
            return true;
        } catch (Exception | Error e) {
            return false;
        }
    }
}
