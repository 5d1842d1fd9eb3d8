package io.memogate.estimator.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.lexer.StatementAnalysis;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The measurement the MySQL parse path was chosen by: how many statements of a corpus of typical MySQL
 * statements (src/test/resources/mysql/corpus.sql: sysbench's, TPC-H's MySQL variants, ORM output, hints,
 * modifiers, locking, upserts, multi-table UPDATE and DELETE, MySQL's comments, escapes and operators) each
 * parser reads: Calcite's Babel parser on the text as written, JSqlParser (a parser made for MySQL among
 * others), and Babel after {@link MySqlRewriter}. The counts are printed for bench/RESULTS.md; the test holds
 * the choice: the rewriter's path reads every statement, so every one is estimated from its join structure.
 */
class MySqlCorpusTest {

    private static final MySqlDialect DIALECT = new MySqlDialect();
    private static List<String> corpus;

    @BeforeAll
    static void read() throws IOException {
        String text;
        try (InputStream in = MySqlCorpusTest.class.getResourceAsStream("/mysql/corpus.sql")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        corpus = new ArrayList<>();
        for (StatementAnalysis st : DIALECT.analyzer().analyze(text).statements()) {
            corpus.add(text.substring(st.span().start(), st.span().end()));
        }
    }

    @Test
    void theCorpusSplitsIntoItsStatementsWithMySqlsComments() {
        assertThat(corpus).hasSize(37);
    }

    @Test
    void calciteAfterTheRewriterReadsEveryStatementAndMoreThanEitherParserAlone() {
        int calcite = read(sql -> parses(sql));
        int jsqlparser = read(MySqlCorpusTest::jsqlparserParses);
        int rewritten = read(sql -> parses(DIALECT.rewriter().rewrite(sql).text()));
        System.out.printf("MySQL corpus of %d statements read by: Calcite Babel %d, JSqlParser %d, "
                + "MySqlRewriter + Calcite Babel %d%n", corpus.size(), calcite,
                jsqlparser, rewritten);
        assertThat(rewritten).isEqualTo(corpus.size());
        assertThat(rewritten).isGreaterThan(jsqlparser).isGreaterThan(calcite);
    }

    @Test
    void everyStatementThatJoinsIsEstimatedFromCalcitesTree() {
        CompileEstimator estimator = new CompileEstimator(DIALECT);
        List<String> lexical = new ArrayList<>();
        for (String sql : corpus) {
            CompileEstimate e = estimator.estimate(sql, null);
            if (!e.bypass() && e.parser() != CompileEstimate.Parser.CALCITE) {
                lexical.add(sql + " -> " + e.reason());
            }
        }
        assertThat(lexical).isEmpty();
    }

    private static int read(Predicate<String> parser) {
        return (int) corpus.stream().filter(parser).count();
    }

    private static boolean parses(String sql) {
        try {
            SqlParser.create(sql, DIALECT.parserConfig()).parseStmt();
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean jsqlparserParses(String sql) {
        try {
            CCJSqlParserUtil.parse(sql);
            return true;
        } catch (Exception | Error e) {
            return false;
        }
    }
}
