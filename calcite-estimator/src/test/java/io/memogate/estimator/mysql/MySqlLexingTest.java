package io.memogate.estimator.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.lexer.LexicalAnalysis;
import io.memogate.estimator.lexer.Literals;
import io.memogate.estimator.lexer.StatementKind;
import io.memogate.estimator.lexer.TextSkeleton;
import io.memogate.estimator.lexer.TokenStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MySQL's text as the estimator reads it: its comments, strings, identifiers and statement forms. */
class MySqlLexingTest {

    private static List<String> tokens(String sql) {
        TokenStream ts = MySqlLexicalRules.tokens(sql);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ts.size(); i++) {
            out.add(ts.kind(i) + "[" + ts.tokenText(i) + "]");
        }
        return out;
    }

    @Test
    void hashAndDashSpaceStartCommentsButTwoMinusSignsDoNot() {
        assertThat(tokens("select 1--1 # a comment; not a statement\n-- another\nfrom t"))
                .containsExactly("IDENT[select]", "NUMBER[1]", "OPERATOR[--]", "NUMBER[1]", "IDENT[from]", "IDENT[t]");
    }

    @Test
    void executableCommentsAreReadAndOrdinaryOnesAreNot() {
        assertThat(tokens("select /*!50000 STRAIGHT_JOIN */ a /* b */ from t /*M!100100 x */"))
                .containsExactly("IDENT[select]", "IDENT[STRAIGHT_JOIN]", "IDENT[a]", "IDENT[from]", "IDENT[t]",
                        "IDENT[x]");
    }

    @Test
    void singleAndDoubleQuotedStringsTakeBackslashEscapes() {
        TokenStream ts = MySqlLexicalRules.tokens("select 'O\\'Brien', \"say \\\"hi\\\" \"\"there\"\"\" from t");
        assertThat(Literals.string(ts, 1)).isEqualTo("O'Brien");
        assertThat(Literals.string(ts, 3)).isEqualTo("say \"hi\" \"there\"");
        assertThat(ts.tokenText(5)).isEqualTo("t");
    }

    @Test
    void backticksQuoteIdentifiersAndVariablesAreOperatorAndName() {
        assertThat(tokens("select `my col`, @v, @@session.x from `t`"))
                .containsExactly("IDENT[select]", "QUOTED_IDENT[`my col`]", "COMMA[,]", "OPERATOR[@]", "IDENT[v]",
                        "COMMA[,]", "OPERATOR[@@]", "IDENT[session]", "DOT[.]", "IDENT[x]", "IDENT[from]",
                        "QUOTED_IDENT[`t`]");
    }

    @Test
    void aSemicolonInACommentOrStringSplitsNothing() {
        LexicalAnalysis analysis = MySqlLexicalRules.analyzer()
                .analyze("select 'a;b' # c; d\n from t; select \"e;f\"; update t set a = 1 -- ;\n");
        assertThat(analysis.statements()).extracting(st -> st.kind())
                .containsExactly(StatementKind.SELECT, StatementKind.SELECT, StatementKind.UPDATE);
    }

    @Test
    void replaceIsPlannedAndSetStatementIsTheStatementAfterFor() {
        var analyzer = MySqlLexicalRules.analyzer();
        assertThat(analyzer.analyze("REPLACE INTO t SELECT * FROM u JOIN v ON u.id = v.id").statements().get(0).kind())
                .isEqualTo(StatementKind.INSERT);
        var set = analyzer.analyze("SET STATEMENT max_statement_time=10 FOR SELECT * FROM a JOIN b ON a.x = b.x")
                .statements().get(0);
        assertThat(set.kind()).isEqualTo(StatementKind.SELECT);
        assertThat(set.relations()).isEqualTo(2);
        assertThat(set.classification().isPlanned()).isTrue();
        assertThat(analyzer.analyze("SET optimizer_prune_level = 0").statements().get(0).kind())
                .isEqualTo(StatementKind.SET);
    }

    @Test
    void textsThatDifferOnlyInConstantsAndCommentsShareASkeletonKey() {
        long a = TextSkeleton.key("select * from t where a = 'x\\'y' # one\n and b = \"z\"", new TokenStream(), MySqlLexicalRules.RULES);
        long b = TextSkeleton.key("select * from t where a = 'q' # two\n and b = \"w\\\"\"", new TokenStream(), MySqlLexicalRules.RULES);
        long c = TextSkeleton.key("select * from u where a = 'q' # two\n and b = \"w\"", new TokenStream(), MySqlLexicalRules.RULES);
        assertThat(a).isEqualTo(b).isNotEqualTo(c);
    }
}
