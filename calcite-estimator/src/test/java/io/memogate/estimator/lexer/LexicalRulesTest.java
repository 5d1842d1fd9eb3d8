package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.lexer.LexicalRules.StringForm;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The lexer reads a dialect's rules, not PostgreSQL's alone: a second rules value, shaped like MySQL's
 * ({@code #} comments, backtick identifiers, backslash escapes in plain strings, block comments that do not
 * nest), lexes the same text differently, and the shared passes (splitting, fingerprints, skeleton keys,
 * literal values) follow it.
 */
class LexicalRulesTest {

    private static final LexicalRules HASH_COMMENTS = LexicalRules.builder()
            .operatorChars("~!@^&|?+-*/%<>=")
            .lineCommentChars("#")
            .backtickIdentifiers(true)
            .plainStrings(StringForm.ESCAPE)
            .nestedComments(false)
            .placeholders(true)
            .build();

    private static final StatementReader READS_NOTHING = new StatementReader() {
        @Override
        public Optional<SettingChange> settingChange(TokenStream statement) {
            return Optional.empty();
        }

        @Override
        public CodeBlock codeBlock(TokenStream statement) {
            return new CodeBlock("none", Optional.empty());
        }
    };

    private static List<String> tokens(String text, LexicalRules rules) {
        TokenStream ts = TokenStream.of(text, rules);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ts.size(); i++) {
            out.add(ts.kind(i) + "[" + ts.tokenText(i) + "]");
        }
        return out;
    }

    @Test
    void hashStartsACommentOnlyWhereTheRulesSaySo() {
        String sql = "select a # the rest is a comment\nfrom t";
        assertThat(tokens(sql, HASH_COMMENTS)).containsExactly("IDENT[select]", "IDENT[a]", "IDENT[from]", "IDENT[t]");
        assertThat(tokens(sql, PostgresLexing.RULES)).contains("OPERATOR[#]", "IDENT[comment]");
    }

    @Test
    void backticksQuoteIdentifiersOnlyWhereTheRulesSaySo() {
        String sql = "select `my ``odd`` col` from t";
        TokenStream ts = TokenStream.of(sql, HASH_COMMENTS);
        assertThat(ts.kind(1)).isEqualTo(TokenKind.QUOTED_IDENT);
        assertThat(Literals.identifier(ts, 1)).contains("my `odd` col");
        assertThat(tokens(sql, PostgresLexing.RULES)).contains("OPERATOR[`]", "IDENT[my]");
    }

    @Test
    void backslashEscapesAQuoteInPlainStringsOnlyWhereTheRulesSaySo() {
        String sql = "select 'it\\'s' from t";
        TokenStream ts = TokenStream.of(sql, HASH_COMMENTS);
        assertThat(tokens(sql, HASH_COMMENTS)).containsExactly("IDENT[select]", "STRING['it\\'s']", "IDENT[from]",
                "IDENT[t]");
        assertThat(Literals.string(ts, 1)).isEqualTo("it's");
        assertThat(tokens(sql, PostgresLexing.RULES)).endsWith("UNTERMINATED[' from t]");
    }

    @Test
    void blockCommentsNestOnlyWhereTheRulesSaySo() {
        String sql = "/* a /* b */ select 1";
        assertThat(tokens(sql, HASH_COMMENTS)).containsExactly("IDENT[select]", "NUMBER[1]");
        assertThat(tokens(sql, PostgresLexing.RULES)).containsExactly("UNTERMINATED[/* a /* b */ select 1]");
    }

    @Test
    void sharedPassesFollowTheRules() {
        LexicalAnalyzer analyzer = new LexicalAnalyzer(HASH_COMMENTS, READS_NOTHING);
        LexicalAnalysis analysis = analyzer.analyze("select a from t # one; not a statement\n; select `b` from u");
        assertThat(analysis.statements()).hasSize(2);
        assertThat(analysis.statements().get(0).fingerprint())
                .isEqualTo(analyzer.analyze("SELECT a FROM t").statements().get(0).fingerprint());
        assertThat(analysis.statements().get(0).fingerprint().text()).isEqualTo("select a from t");

        assertThat(TextSkeleton.key("select a from t where b = 'x' # one", HASH_COMMENTS))
                .isEqualTo(TextSkeleton.key("select a from t where b = 'y\\'z' # two", HASH_COMMENTS));
        assertThat(TextSkeleton.key("select a from t # one", PostgresLexing.RULES))
                .isNotEqualTo(TextSkeleton.key("select a from t # two", PostgresLexing.RULES));
    }
}
