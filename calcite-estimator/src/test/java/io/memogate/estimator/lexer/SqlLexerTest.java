package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lexer against PostgreSQL's lexical rules, one form at a time. Each token prints as
 * {@code KIND text}; whitespace and comments print nothing.
 */
class SqlLexerTest {

    static List<String> tokens(String sql) {
        List<String> out = new ArrayList<>();
        SqlLexer lexer = PostgresLexing.lexer(sql);
        while (lexer.next()) {
            out.add(lexer.kind() + " " + sql.substring(lexer.start(), lexer.end()));
        }
        return out;
    }

    @Test
    void wordsNumbersAndPunctuation() {
        assertThat(tokens("SELECT a, b.c FROM t WHERE x = 1;")).containsExactly(
                "IDENT SELECT", "IDENT a", "COMMA ,", "IDENT b", "DOT .", "IDENT c", "IDENT FROM", "IDENT t",
                "IDENT WHERE", "IDENT x", "OPERATOR =", "NUMBER 1", "SEMICOLON ;");
    }

    @Test
    void keywordsAreRecognizedInAnyCase() {
        SqlLexer lexer = PostgresLexing.lexer("sElEcT fromage FROM");
        assertThat(lexer.next()).isTrue();
        assertThat(lexer.keyword()).isEqualTo(Keyword.SELECT);
        assertThat(lexer.next()).isTrue();
        assertThat(lexer.keyword()).isEqualTo(Keyword.NONE);
        assertThat(lexer.next()).isTrue();
        assertThat(lexer.keyword()).isEqualTo(Keyword.FROM);
        assertThat(lexer.next()).isFalse();
    }

    @Test
    void identifiersTakeDollarsDigitsAndNonAsciiCharacters() {
        assertThat(tokens("a$b$c _x1 café 表 straße$$x$$")).containsExactly(
                "IDENT a$b$c", "IDENT _x1", "IDENT café", "IDENT 表", "IDENT straße$$x$$");
    }

    @Test
    void commentsAreSkippedAndBlockCommentsNest() {
        assertThat(tokens("a -- line ; 'not a string'\nb /* outer /* inner */ still comment */ c /*/ */ d"))
                .containsExactly("IDENT a", "IDENT b", "IDENT c", "IDENT d");
        assertThat(tokens("a--x\rb")).containsExactly("IDENT a", "IDENT b");
    }

    @Test
    void whitespaceIncludesFormFeedAndVerticalTab() {
        assertThat(tokens("a\f\u000Bb\t\r\nc")).containsExactly("IDENT a", "IDENT b", "IDENT c");
    }

    @Test
    void stringsWithDoubledQuotes() {
        assertThat(tokens("'it''s' ''")).containsExactly("STRING 'it''s'", "STRING ''");
    }

    @Test
    void commentMarkersAndDollarsInsideStringsAreText() {
        assertThat(tokens("'-- no comment' '/* nor this' '$$' ';'"))
                .containsExactly("STRING '-- no comment'", "STRING '/* nor this'", "STRING '$$'", "STRING ';'");
    }

    @Test
    void escapeStringsTakeBackslashes() {
        assertThat(tokens("E'it\\'s' e'\\\\' E'\\\\'''")).containsExactly(
                "STRING E'it\\'s'", "STRING e'\\\\'", "STRING E'\\\\'''");
        // E'\\'' is an escaped backslash and then a doubled quote: the string goes on
        assertThat(tokens("E'\\\\'' x")).containsExactly("UNTERMINATED E'\\\\'' x");
    }

    @Test
    void standardStringsDoNotTakeBackslashes() {
        assertThat(tokens("'a\\' b")).containsExactly("STRING 'a\\'", "IDENT b");
    }

    @Test
    void unicodeAndNationalStrings() {
        assertThat(tokens("U&'d\\0061t\\+000061' UESCAPE '!' N'x' U&\"d\\0061t\" u&'\\'")).containsExactly(
                "STRING U&'d\\0061t\\+000061'", "IDENT UESCAPE", "STRING '!'", "STRING N'x'",
                "QUOTED_IDENT U&\"d\\0061t\"", "STRING u&'\\'");
        // a backslash does not escape the quote in U&'': \'' is a backslash and a doubled quote
        assertThat(tokens("U&'\\''")).containsExactly("UNTERMINATED U&'\\''");
    }

    @Test
    void uAmpersandWithoutQuoteIsAnIdentifierAndAnOperator() {
        assertThat(tokens("u&x")).containsExactly("IDENT u", "OPERATOR &", "IDENT x");
    }

    @Test
    void bitStringsEndAtTheirFirstQuote() {
        assertThat(tokens("B'1010' x'1F' b'10''01'")).containsExactly(
                "BIT_STRING B'1010'", "BIT_STRING x'1F'", "BIT_STRING b'10'", "STRING '01'");
    }

    @Test
    void stringsContinueAcrossANewlineOnly() {
        assertThat(tokens("'a'\n  'b' -- c\n'd'")).containsExactly("STRING 'a'\n  'b' -- c\n'd'");
        assertThat(tokens("'a' 'b'")).containsExactly("STRING 'a'", "STRING 'b'");
        assertThat(tokens("E'a'\n'\\''")).containsExactly("STRING E'a'\n'\\''");
        assertThat(tokens("'a' /* c */\n'b'")).containsExactly("STRING 'a'", "STRING 'b'");
    }

    @Test
    void dollarQuotes() {
        assertThat(tokens("$$it's; -- $$ $a$ $$ inner $$ $b$ $a$ $_1$x$_1$")).containsExactly(
                "DOLLAR_STRING $$it's; -- $$", "DOLLAR_STRING $a$ $$ inner $$ $b$ $a$", "DOLLAR_STRING $_1$x$_1$");
        assertThat(tokens("$body$ select $1 $body$")).containsExactly("DOLLAR_STRING $body$ select $1 $body$");
        assertThat(tokens("$a$x$A$y$a$")).containsExactly("DOLLAR_STRING $a$x$A$y$a$");
    }

    @Test
    void dollarDigitIsAParameterNotAQuote() {
        assertThat(tokens("$1 $12 $1$")).containsExactly("PARAM $1", "PARAM $12", "PARAM $1", "OTHER $");
        assertThat(tokens("$1a$ $a$")).containsExactly("PARAM $1", "IDENT a$", "UNTERMINATED $a$");
    }

    @Test
    void loneDollarIsOther() {
        assertThat(tokens("$ $x $")).containsExactly("OTHER $", "OTHER $", "IDENT x", "OTHER $");
    }

    @Test
    void quotedIdentifiers() {
        assertThat(tokens("\"My \"\"Table\"\"\" \"a;b\"")).containsExactly(
                "QUOTED_IDENT \"My \"\"Table\"\"\"", "QUOTED_IDENT \"a;b\"");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"42", "3.5", "4.", ".5", "1e-3", "1E+10", "2.5e3", ".5e1", "0x1F", "0X1f", "0o17",
            "0b101", "1_000_000", "0x_FF", "1_0.2_5"})
    void numbers(String number) {
        assertThat(tokens(number)).containsExactly("NUMBER " + number);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '¦', value = {
            "1..10      ¦ NUMBER 1, DOT_DOT .., NUMBER 10",
            "a[1:10]    ¦ IDENT a, LBRACKET [, NUMBER 1, COLON :, NUMBER 10, RBRACKET ]",
            "1e10e      ¦ NUMBER 1e10, IDENT e",
            "1e         ¦ NUMBER 1, IDENT e",
            "1e-        ¦ NUMBER 1, IDENT e, OPERATOR -",
            "123abc     ¦ NUMBER 123, IDENT abc",
            "0x         ¦ NUMBER 0, IDENT x",
            "0b102      ¦ NUMBER 0b10, NUMBER 2",
            "1__0       ¦ NUMBER 1, IDENT __0",
            "1.5.5      ¦ NUMBER 1.5, NUMBER .5",
    })
    void numberEdges(String sql, String expected) {
        assertThat(String.join(", ", tokens(sql.trim()))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '¦', value = {
            "a::int[]   ¦ IDENT a, TYPECAST ::, IDENT int, LBRACKET [, RBRACKET ]",
            "j->>'k'    ¦ IDENT j, OPERATOR ->>, STRING 'k'",
            "a@>b       ¦ IDENT a, OPERATOR @>, IDENT b",
            "x<>y       ¦ IDENT x, OPERATOR <>, IDENT y",
            "x!=y       ¦ IDENT x, OPERATOR !=, IDENT y",
            "a<=b       ¦ IDENT a, OPERATOR <=, IDENT b",
            "a||b       ¦ IDENT a, OPERATOR ||, IDENT b",
            "x=-1       ¦ IDENT x, OPERATOR =, OPERATOR -, NUMBER 1",
            "x*-+1      ¦ IDENT x, OPERATOR *, OPERATOR -, OPERATOR +, NUMBER 1",
            "x@-1       ¦ IDENT x, OPERATOR @-, NUMBER 1",
            "a=>b       ¦ IDENT a, OPERATOR =>, IDENT b",
            "v:=1       ¦ IDENT v, COLON_EQUALS :=, NUMBER 1",
            "a+/*c*/b   ¦ IDENT a, OPERATOR +, IDENT b",
            "a*--c      ¦ IDENT a, OPERATOR *",
            "a<--c      ¦ IDENT a, OPERATOR <",
    })
    void operators(String sql, String expected) {
        assertThat(String.join(", ", tokens(sql.trim()))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '¦', value = {
            "a = ?          ¦ IDENT a, OPERATOR =, PLACEHOLDER ?",
            "(?,?)          ¦ LPAREN (, PLACEHOLDER ?, COMMA ,, PLACEHOLDER ?, RPAREN )",
            "j ?| array[?]  ¦ IDENT j, OPERATOR ?|, IDENT array, LBRACKET [, PLACEHOLDER ?, RBRACKET ]",
            "j ?& k         ¦ IDENT j, OPERATOR ?&, IDENT k",
            "j ? 'k'        ¦ IDENT j, PLACEHOLDER ?, STRING 'k'",
            "a=?            ¦ IDENT a, OPERATOR =?",
            "?-1            ¦ OPERATOR ?-, NUMBER 1",
            "??             ¦ OPERATOR ??",
    })
    void questionMarks(String sql, String expected) {
        assertThat(String.join(", ", tokens(sql.trim()))).isEqualTo(expected);
    }

    @Test
    void everyPunctuationMark() {
        assertThat(tokens("()[],;.:")).containsExactly("LPAREN (", "RPAREN )", "LBRACKET [", "RBRACKET ]",
                "COMMA ,", "SEMICOLON ;", "DOT .", "COLON :");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '¦', value = {
            "select 'abc         ¦ IDENT select, UNTERMINATED 'abc",
            "select E'abc\\'     ¦ IDENT select, UNTERMINATED E'abc\\'",
            "select \"abc        ¦ IDENT select, UNTERMINATED \"abc",
            "select $$abc        ¦ IDENT select, UNTERMINATED $$abc",
            "select $q$abc$$     ¦ IDENT select, UNTERMINATED $q$abc$$",
            "select 1 /* a /* b */ ¦ IDENT select, NUMBER 1, UNTERMINATED /* a /* b */",
            "select B'01         ¦ IDENT select, UNTERMINATED B'01",
    })
    void unterminatedRunsToTheEnd(String sql, String expected) {
        assertThat(String.join(", ", tokens(sql.trim()))).isEqualTo(expected);
    }

    @Test
    void rejectedCharactersAreOtherTokens() {
        assertThat(tokens("a\u0000b \\ { } \u0001")).containsExactly(
                "IDENT a", "OTHER \u0000", "IDENT b", "OTHER \\", "OTHER {", "OTHER }", "OTHER \u0001");
    }

    @Test
    void aRangeOfTheTextKeepsItsOffsets() {
        String sql = "select 1; select 'x'";
        SqlLexer lexer = PostgresLexing.lexer(sql, 10, sql.length());
        assertThat(lexer.next()).isTrue();
        assertThat(lexer.start()).isEqualTo(10);
        assertThat(lexer.next()).isTrue();
        assertThat(lexer.kind()).isEqualTo(TokenKind.STRING);
        assertThat(lexer.end()).isEqualTo(sql.length());
        assertThat(lexer.next()).isFalse();
        // a quote that closes only beyond the range is unterminated within it
        SqlLexer cut = PostgresLexing.lexer(sql, 17, 19);
        assertThat(cut.next()).isTrue();
        assertThat(cut.kind()).isEqualTo(TokenKind.UNTERMINATED);
        assertThat(cut.end()).isEqualTo(19);
    }

    @Test
    void everyQuotedFormClosingOnlyBeyondTheRangeIsUnterminatedWithinIt() {
        String sql = "select \"a\", $q$b$q$, 'c', E'd'";
        for (String quoted : List.of("\"a\"", "$q$b$q$", "'c'", "E'd'")) {
            int start = sql.indexOf(quoted);
            int cutEnd = start + quoted.length() - 1; // the range stops just before the closing character
            SqlLexer cut = PostgresLexing.lexer(sql, start, cutEnd);
            assertThat(cut.next()).as(quoted).isTrue();
            assertThat(cut.kind()).as(quoted).isEqualTo(TokenKind.UNTERMINATED);
            assertThat(cut.end()).as(quoted).isEqualTo(cutEnd);
            SqlLexer whole = PostgresLexing.lexer(sql, start, cutEnd + 1);
            assertThat(whole.next()).as(quoted).isTrue();
            assertThat(whole.kind()).as(quoted).isNotEqualTo(TokenKind.UNTERMINATED);
            assertThat(whole.end()).as(quoted).isEqualTo(cutEnd + 1);
        }
    }

    @Test
    void tokenStreamHoldsTheSameTokens() {
        TokenStream ts = PostgresLexing.tokens("SELECT x FROM t");
        assertThat(ts.size()).isEqualTo(4);
        assertThat(ts.kind(1)).isEqualTo(TokenKind.IDENT);
        assertThat(ts.keyword(2)).isEqualTo(Keyword.FROM);
        assertThat(ts.is(0, Keyword.SELECT)).isTrue();
        assertThat(ts.is(9, Keyword.SELECT)).isFalse();
        assertThat(ts.isWord(3, "t")).isTrue();
        assertThat(ts.tokenText(3)).isEqualTo("t");
        assertThat(ts.start(3)).isEqualTo(14);
        assertThat(ts.end(3)).isEqualTo(15);
    }

    @Test
    void tokenStreamGrowsAndIsReused() {
        TokenStream ts = new TokenStream(1);
        String many = "a,".repeat(1000);
        ts.lex(many, 0, many.length(), PostgresLexing.RULES);
        assertThat(ts.size()).isEqualTo(2000);
        ts.lex("b", 0, 1, PostgresLexing.RULES);
        assertThat(ts.size()).isEqualTo(1);
        assertThat(ts.tokenText(0)).isEqualTo("b");
    }
}
