package io.memogate.estimator.sqlserver;

import io.memogate.estimator.dialect.Rewriter;
import io.memogate.estimator.dialect.WrittenToken;
import io.memogate.estimator.lexer.Literals;
import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Token rewrites that let Calcite's Babel parser read T-SQL as applications and drivers send it, keeping what
 * SQL Server's optimizer joins: the same tables, the same conditions between them. The statement is written
 * again from its T-SQL tokens (comments go), then:
 * <ul>
 *   <li>{@code [name]} and {@code "name"} are standard quoted names, and so are temporary tables ({@code #t},
 *   {@code ##t}); {@code N'...'} is a plain string; variables and parameters ({@code @P0}, {@code @@ROWCOUNT})
 *   are {@code ?};</li>
 *   <li>removed, since they bound rows or steer the plan but change no join: {@code TOP n}, {@code TOP (expr)}
 *   with {@code PERCENT} and {@code WITH TIES}; table hints ({@code WITH (NOLOCK, INDEX(i))}, the old
 *   {@code t (NOLOCK)}); join hints ({@code INNER HASH JOIN}, {@code LOOP}, {@code MERGE}, {@code REMOTE});
 *   {@code OPTION (...)}; {@code FOR XML|JSON|BROWSE ...}; an OUTPUT clause; {@code SELECT ... INTO target}'s
 *   target;</li>
 *   <li>{@code CONVERT(type, expr[, style])} and
 *   {@code TRY_CONVERT} are {@code CAST(expr AS type)}, {@code TRY_CAST} is CAST, T-SQL's type names standard
 *   ones ({@code NVARCHAR(MAX)} VARCHAR, {@code DATETIME2} TIMESTAMP, {@code BIT} BOOLEAN, ...);
 *   {@code COUNT_BIG} is COUNT;</li>
 *   <li>{@code UPDATE}, {@code DELETE}, {@code INSERT} and {@code MERGE} are the query of their tables
 *   ({@link TsqlStatements}).</li>
 * </ul>
 * CROSS APPLY, OUTER APPLY, OFFSET ... FETCH and the date functions ({@code DATEADD(dd, 1, d)},
 * {@code DATEPART(quarter, d)}) are left as they are: Babel reads them. Thread-safe: stateless.
 */
public final class TsqlRewriter implements Rewriter {

    /** Words after which {@code TOP} is a row limit. */
    private static final Set<String> BEFORE_TOP = Set.of("select", "distinct", "all", "update", "delete", "insert");
    private static final Set<String> JOIN_HINTS = Set.of("hash", "loop", "merge", "remote", "reduce", "replicate",
            "redistribute");
    /** Table hints that the old syntax writes in parentheses after the table, without WITH. */
    private static final Set<String> BARE_TABLE_HINTS = Set.of("nolock", "readuncommitted", "readcommitted",
            "repeatableread", "serializable", "holdlock", "updlock", "xlock", "rowlock", "paglock", "tablock",
            "tablockx", "readpast", "nowait", "readcommittedlock", "forceseek", "forcescan", "noexpand");
    static final Map<String, String> TYPES = Map.ofEntries(Map.entry("nvarchar", "VARCHAR"),
            Map.entry("nchar", "CHAR"), Map.entry("ntext", "VARCHAR"), Map.entry("text", "VARCHAR"),
            Map.entry("datetime", "TIMESTAMP"), Map.entry("datetime2", "TIMESTAMP"),
            Map.entry("smalldatetime", "TIMESTAMP"), Map.entry("datetimeoffset", "TIMESTAMP"),
            Map.entry("bit", "BOOLEAN"), Map.entry("money", "DECIMAL"), Map.entry("smallmoney", "DECIMAL"),
            Map.entry("uniqueidentifier", "VARCHAR"), Map.entry("sysname", "VARCHAR"),
            Map.entry("tinyint", "SMALLINT"), Map.entry("image", "VARBINARY"), Map.entry("xml", "VARCHAR"));

    @Override
    public Rewrite rewrite(String query) {
        Set<String> notes = new LinkedHashSet<>();
        TokenStream t = TsqlLexicalRules.tokens(query);
        TsqlTokens out = new TsqlTokens(t.size());
        for (int i = 0; i < t.size(); i++) {
            i = token(t, i, out, notes);
        }
        List<WrittenToken> statement = TsqlStatements.asQuery(out.tokens(), notes);
        return new Rewrite(WrittenToken.text(statement), List.copyOf(notes), Set.of(), Set.of());
    }

    /** Writes the token at {@code i} as Calcite reads it; returns the last token it consumed. */
    static int token(TokenStream t, int i, TsqlTokens out, Set<String> notes) {
        TokenKind kind = t.kind(i);
        String text = t.tokenText(i);
        String word = kind == TokenKind.IDENT ? text.toLowerCase(Locale.ROOT) : "";
        if (kind == TokenKind.STRING) {
            out.add(kind, text.charAt(0) == '\'' ? text : text.substring(1)); // N'...' is a string
        } else if (kind == TokenKind.QUOTED_IDENT) {
            out.add(kind, quoted(Literals.identifier(t, i).orElse("")));
        } else if (word.startsWith("@")) {
            out.add(TokenKind.PLACEHOLDER, "?");
            notes.add("variables and parameters read as ?");
        } else if (word.startsWith("#")) {
            out.add(TokenKind.QUOTED_IDENT, quoted(text));
        } else if (word.equals("top") && BEFORE_TOP.contains(out.lastWord()) && countFollows(t, i + 1)) {
            notes.add("TOP removed");
            return topEnd(t, i + 1);
        } else if (word.equals("with") && t.is(i + 1, TokenKind.LPAREN)) {
            notes.add("table hints removed");
            return TsqlTokens.groupEnd(t, i + 1);
        } else if (kind == TokenKind.LPAREN && bareHint(t, i) && out.lastKindIsName()) {
            notes.add("table hints removed");
            return TsqlTokens.groupEnd(t, i);
        } else if (JOIN_HINTS.contains(word) && t.isWord(i + 1, "join")) {
            notes.add("join hints removed");
        } else if (word.equals("option") && t.is(i + 1, TokenKind.LPAREN)) {
            notes.add("OPTION removed");
            return TsqlTokens.groupEnd(t, i + 1);
        } else if (word.equals("for") && (t.isWord(i + 1, "xml") || t.isWord(i + 1, "json")
                || t.isWord(i + 1, "browse"))) {
            notes.add("FOR " + t.tokenText(i + 1).toUpperCase(Locale.ROOT) + " removed");
            return TsqlTokens.clauseEnd(t, i);
        } else if (word.equals("output") && out.inStatement("insert", "update", "delete", "merge")) {
            notes.add("OUTPUT removed");
            return TsqlTokens.outputEnd(t, i);
        } else if (word.equals("into") && !out.lastWord().equals("insert") && !out.lastWord().equals("merge")
                && out.inStatement("select")) {
            notes.add("SELECT INTO read as its query");
            return TsqlTokens.nameEnd(t, i + 1);
        } else if ((word.equals("convert") || word.equals("try_convert")) && t.is(i + 1, TokenKind.LPAREN)) {
            notes.add("CONVERT read as CAST");
            return TsqlConvert.write(t, i + 1, out, notes);
        } else if (word.equals("try_cast")) {
            out.add(kind, "CAST");
        } else if (word.equals("count_big")) {
            out.add(kind, "COUNT");
        } else if (TYPES.containsKey(word) && out.lastWord().equals("as")) {
            return TsqlConvert.type(t, i, out);
        } else {
            out.add(kind, text);
        }
        return i;
    }

    static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** TOP is followed by its count: a number, a variable or a parenthesized expression. */
    private static boolean countFollows(TokenStream t, int i) {
        return t.is(i, TokenKind.NUMBER) || t.is(i, TokenKind.LPAREN)
                || t.is(i, TokenKind.IDENT) && t.tokenText(i).startsWith("@");
    }

    /** The last token of TOP's count and its PERCENT and WITH TIES, the count starting at {@code i}. */
    private static int topEnd(TokenStream t, int i) {
        int end = t.is(i, TokenKind.LPAREN) ? TsqlTokens.groupEnd(t, i) : i;
        if (t.isWord(end + 1, "percent")) {
            end++;
        }
        if (t.isWord(end + 1, "with") && t.isWord(end + 2, "ties")) {
            end += 2;
        }
        return end;
    }

    /** {@code (NOLOCK)}, {@code (NOLOCK, ...)} after a table: the old syntax of table hints. */
    private static boolean bareHint(TokenStream t, int i) {
        return t.is(i + 1, TokenKind.IDENT) && BARE_TABLE_HINTS.contains(t.tokenText(i + 1).toLowerCase(Locale.ROOT))
                && (t.is(i + 2, TokenKind.RPAREN) || t.is(i + 2, TokenKind.COMMA));
    }
}
