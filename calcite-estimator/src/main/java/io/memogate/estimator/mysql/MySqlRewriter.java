package io.memogate.estimator.mysql;

import io.memogate.estimator.dialect.Rewriter;
import io.memogate.estimator.dialect.WrittenToken;
import io.memogate.estimator.lexer.Literals;
import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Token rewrites that let Calcite's parser read what MySQL and MariaDB accept and it does not, keeping what the
 * join search sees: the same tables, the same conditions between them. The statement is written again from
 * its MySQL tokens, so comments go (and an executable comment's text stays), strings become standard SQL
 * strings (backslash escapes applied, {@code "..."} strings single-quoted). Then:
 * <ul>
 *   <li>{@code UPDATE tables SET ... [WHERE ...] [ORDER BY ...] [LIMIT n]}, one table or several, becomes
 *   {@code SELECT 1 FROM tables [WHERE ...] ...}; so does {@code DELETE} in its three forms
 *   ({@code DELETE FROM t ...}, {@code DELETE t1, t2 FROM tables ...}, {@code DELETE FROM t1 USING tables ...}):
 *   MySQL optimizes the join of the tables as a SELECT's;</li>
 *   <li>{@code INSERT} and {@code REPLACE} are their source query ({@code SELECT}, {@code VALUES}),
 *   without {@code ON DUPLICATE KEY UPDATE ...}; removed too are {@code BINARY} before an operand, and the
 *   modifiers {@code LOW_PRIORITY}, {@code DELAYED}, {@code HIGH_PRIORITY}, {@code IGNORE}, {@code QUICK},
 *   {@code SQL_CALC_FOUND_ROWS}, {@code SQL_NO_CACHE} and the other {@code SQL_*}; {@code DISTINCTROW} is
 *   DISTINCT;</li>
 *   <li>{@code STRAIGHT_JOIN} between tables is a JOIN (MySQL then keeps the order written: the search is
 *   still counted, an upper bound), and after SELECT it is removed;</li>
 *   <li>index hints ({@code USE|FORCE|IGNORE INDEX|KEY [FOR JOIN|ORDER BY|GROUP BY] (...)}), locking clauses
 *   ({@code FOR UPDATE}, {@code FOR SHARE}, {@code LOCK IN SHARE MODE}, with {@code NOWAIT} or
 *   {@code SKIP LOCKED}) and character set introducers ({@code _utf8mb4'x'}) are removed;</li>
 *   <li>user and system variables ({@code @v}, {@code @@session.v}) are parameters; {@code LIMIT a, b} is
 *   {@code LIMIT b OFFSET a}; {@code INTERVAL 1 DAY} is {@code INTERVAL '1' DAY}; {@code <=>} is {@code =},
 *   {@code &&} AND, {@code ||} OR, {@code XOR} OR, {@code DIV} {@code /}, {@code REGEXP} and {@code RLIKE}
 *   LIKE; a cast to {@code SIGNED} or {@code UNSIGNED} is a cast to INTEGER.</li>
 * </ul>
 * Thread-safe: stateless.
 */
public final class MySqlRewriter implements Rewriter {

    private static final Set<String> MODIFIERS = Set.of("low_priority", "delayed", "high_priority", "quick",
            "sql_calc_found_rows", "sql_no_cache", "sql_cache", "sql_small_result", "sql_big_result",
            "sql_buffer_result");
    private static final Set<String> STATEMENT_ENDS = Set.of("where", "order", "limit");

    @Override
    public Rewrite rewrite(String query) {
        Set<String> notes = new LinkedHashSet<>();
        List<WrittenToken> tokens = tokens(MySqlLexicalRules.tokens(query), notes);
        tokens = statementToQuery(tokens, notes);
        return new Rewrite(WrittenToken.text(tokens), List.copyOf(notes), Set.of(), Set.of());
    }

    /** The tokens rewritten one by one. */
    private static List<WrittenToken> tokens(TokenStream t, Set<String> notes) {
        List<WrittenToken> out = new ArrayList<>(t.size());
        int depth = 0;
        for (int i = 0; i < t.size(); i++) {
            TokenKind kind = t.kind(i);
            String text = t.tokenText(i);
            String word = kind == TokenKind.IDENT ? text.toLowerCase(Locale.ROOT) : "";
            if (kind == TokenKind.LPAREN) {
                depth++;
            } else if (kind == TokenKind.RPAREN) {
                depth--;
            }
            if (kind == TokenKind.STRING) {
                out.add(new WrittenToken(kind, "'" + Literals.string(t, i).replace("'", "''") + "'"));
            } else if (kind == TokenKind.IDENT && word.startsWith("_") && t.is(i + 1, TokenKind.STRING)) {
                notes.add("character set introducer removed");
            } else if (kind == TokenKind.OPERATOR && (text.equals("@") || text.equals("@@"))) {
                i = variableEnd(t, i);
                out.add(new WrittenToken(TokenKind.PLACEHOLDER, "?"));
                notes.add("variables read as parameters");
            } else if (MODIFIERS.contains(word) || word.equals("ignore") && !t.isWord(i + 1, "index")
                    && !t.isWord(i + 1, "key")) {
                notes.add(word.toUpperCase(Locale.ROOT) + " removed");
            } else if (word.equals("straight_join")) {
                boolean modifier = !out.isEmpty() && out.get(out.size() - 1).word().equals("select");
                if (!modifier) {
                    out.add(new WrittenToken(TokenKind.IDENT, "JOIN"));
                }
                notes.add("STRAIGHT_JOIN read as JOIN");
            } else if (word.equals("binary") && !t.is(i + 1, TokenKind.LPAREN) && !t.is(i + 1, TokenKind.RPAREN)
                    && !(!out.isEmpty() && out.get(out.size() - 1).word().equals("as"))) {
                notes.add("BINARY removed"); // LIKE BINARY 'x', BINARY col: a comparison's collation
            } else if (word.equals("distinctrow")) {
                out.add(new WrittenToken(TokenKind.IDENT, "DISTINCT"));
            } else if ((word.equals("use") || word.equals("force") || word.equals("ignore"))
                    && (t.isWord(i + 1, "index") || t.isWord(i + 1, "key"))) {
                i = indexHintEnd(t, i + 2);
                notes.add("index hints removed");
            } else if (depth == 0 && (word.equals("for") && (t.isWord(i + 1, "update") || t.isWord(i + 1, "share"))
                    || word.equals("lock") && t.isWord(i + 1, "in"))) {
                notes.add("locking clause removed");
                i = lockingEnd(t, i);
            } else if (depth == 0 && word.equals("on") && t.isWord(i + 1, "duplicate")) {
                notes.add("ON DUPLICATE KEY UPDATE removed");
                break; // it ends the statement
            } else if (word.equals("limit") && t.is(i + 1, TokenKind.NUMBER) && t.is(i + 2, TokenKind.COMMA)
                    && t.is(i + 3, TokenKind.NUMBER)) {
                out.add(new WrittenToken(kind, "LIMIT"));
                out.add(new WrittenToken(TokenKind.NUMBER, t.tokenText(i + 3)));
                out.add(new WrittenToken(TokenKind.IDENT, "OFFSET"));
                out.add(new WrittenToken(TokenKind.NUMBER, t.tokenText(i + 1)));
                i += 3;
            } else if (word.equals("interval") && t.is(i + 1, TokenKind.NUMBER) && t.is(i + 2, TokenKind.IDENT)) {
                out.add(new WrittenToken(kind, "INTERVAL"));
                out.add(new WrittenToken(TokenKind.STRING, "'" + t.tokenText(i + 1) + "'"));
                i++;
            } else if (kind == TokenKind.OPERATOR && !operator(text).equals(text)) {
                out.add(new WrittenToken(kind, operator(text)));
                notes.add("MySQL operators read as standard ones");
            } else if (word.equals("xor") || word.equals("div") || word.equals("regexp") || word.equals("rlike")) {
                out.add(new WrittenToken(kind, switch (word) {
                    case "xor" -> "OR";
                    case "div" -> "/";
                    default -> "LIKE";
                }));
                notes.add("MySQL operators read as standard ones");
            } else if ((word.equals("signed") || word.equals("unsigned")) && !out.isEmpty()
                    && out.get(out.size() - 1).word().equals("as")) {
                out.add(new WrittenToken(kind, "INTEGER"));
                if (t.isWord(i + 1, "integer") || t.isWord(i + 1, "int")) {
                    i++;
                }
            } else {
                out.add(new WrittenToken(kind, text));
            }
        }
        return out;
    }

    private static String operator(String op) {
        return switch (op) {
            case "<=>" -> "=";
            case "&&" -> "AND";
            case "||" -> "OR";
            case "!" -> "NOT";
            default -> op;
        };
    }

    /** The last token of {@code @name}, {@code @@name} or {@code @@scope.name} starting at {@code at}. */
    private static int variableEnd(TokenStream t, int at) {
        int i = at;
        if (t.is(i + 1, TokenKind.IDENT) || t.is(i + 1, TokenKind.QUOTED_IDENT) || t.is(i + 1, TokenKind.STRING)) {
            i++;
            if (t.is(i + 1, TokenKind.DOT) && t.is(i + 2, TokenKind.IDENT)) {
                i += 2;
            }
        }
        return i;
    }

    /** The last token of an index hint whose list of names, after its optional FOR clause, starts at or after i. */
    private static int indexHintEnd(TokenStream t, int i) {
        if (t.isWord(i, "for")) {
            i += t.isWord(i + 1, "join") ? 2 : 3; // FOR JOIN, FOR ORDER BY, FOR GROUP BY
        }
        if (!t.is(i, TokenKind.LPAREN)) {
            return i - 1;
        }
        for (int depth = 0; i < t.size(); i++) {
            if (t.is(i, TokenKind.LPAREN)) {
                depth++;
            } else if (t.is(i, TokenKind.RPAREN) && --depth == 0) {
                return i;
            }
        }
        return t.size() - 1;
    }

    /** The last token of a locking clause starting at i: FOR UPDATE [OF ...] [NOWAIT | SKIP LOCKED], LOCK IN SHARE MODE. */
    private static int lockingEnd(TokenStream t, int i) {
        if (t.isWord(i, "lock")) {
            return Math.min(i + 3, t.size() - 1);
        }
        int end = i + 1;
        if (t.isWord(end + 1, "of")) {
            end += 2;
            while (t.is(end + 1, TokenKind.COMMA) || t.is(end + 1, TokenKind.DOT)) {
                end += 2;
            }
        }
        if (t.isWord(end + 1, "nowait")) {
            end++;
        } else if (t.isWord(end + 1, "skip") && t.isWord(end + 2, "locked")) {
            end += 2;
        }
        return Math.min(end, t.size() - 1);
    }

    /** UPDATE and DELETE as the SELECT of their tables; REPLACE as INSERT; other statements unchanged. */
    private static List<WrittenToken> statementToQuery(List<WrittenToken> tokens, Set<String> notes) {
        if (tokens.isEmpty()) {
            return tokens;
        }
        String first = tokens.get(0).word();
        if (first.equals("replace") || first.equals("insert")) {
            // INSERT and REPLACE plan their source query: SELECT, TABLE or VALUES (or SET, one row: nothing).
            int source = WrittenToken.atDepth0(tokens, 1, Set.of("select", "with", "values", "value", "table"));
            notes.add((first.equals("replace") ? "REPLACE" : "INSERT") + " read as its source query");
            if (source < 0) {
                return List.of(new WrittenToken(TokenKind.IDENT, "SELECT"), new WrittenToken(TokenKind.NUMBER, "1"));
            }
            List<WrittenToken> query = new ArrayList<>(tokens.subList(source, tokens.size()));
            if (query.get(0).word().equals("value")) {
                query.set(0, new WrittenToken(TokenKind.IDENT, "VALUES"));
            }
            return query;
        }
        if (first.equals("update")) {
            int set = WrittenToken.atDepth0(tokens, 1, Set.of("set"));
            if (set < 0) {
                return tokens;
            }
            int rest = WrittenToken.atDepth0(tokens, set + 1, STATEMENT_ENDS);
            notes.add("UPDATE read as the SELECT of its tables");
            return WrittenToken.select(tokens.subList(1, set), rest < 0 ? List.of() : tokens.subList(rest, tokens.size()));
        }
        if (first.equals("delete")) {
            int from = WrittenToken.atDepth0(tokens, 1, Set.of("from"));
            if (from < 0) {
                return tokens;
            }
            int using = WrittenToken.atDepth0(tokens, from + 1, Set.of("using"));
            int rest = WrittenToken.atDepth0(tokens, from + 1, STATEMENT_ENDS);
            int tablesFrom = using >= 0 ? using + 1 : from + 1;
            int tablesTo = rest < 0 ? tokens.size() : rest;
            if (tablesFrom > tablesTo) {
                return tokens;
            }
            notes.add("DELETE read as the SELECT of its tables");
            return WrittenToken.select(tokens.subList(tablesFrom, tablesTo),
                    rest < 0 ? List.of() : tokens.subList(rest, tokens.size()));
        }
        return tokens;
    }
}
