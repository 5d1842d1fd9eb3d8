package io.memogate.estimator.postgres;

import io.memogate.estimator.dialect.Rewriter;
import io.memogate.estimator.lexer.Keyword;
import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Token-level rewrites that let Calcite's Babel parser (1.42) read PostgreSQL statements it rejects,
 * without changing what the join search sees: the same FROM items, the same conjuncts between the same
 * relations. Each rewrite that fires adds a note for the estimate's reason.
 * <ul>
 *   <li>{@code UPDATE t SET ... FROM u WHERE p} becomes {@code SELECT 1 FROM t, u WHERE p} and
 *   {@code DELETE FROM t USING u WHERE p} becomes {@code SELECT 1 FROM t, u WHERE p}, and
 *   {@code MERGE INTO t USING s ON c WHEN ...} becomes {@code SELECT 1 FROM t JOIN s ON c}: PostgreSQL plans
 *   the target as one more FROM item (src/backend/parser/analyze.c, transformUpdateStmt). Sub-selects in
 *   the SET list are kept as select items so they are still planned separately.
 *   <li>{@code INSERT ... SELECT} keeps its query, without {@code ON CONFLICT} and {@code RETURNING}.
 *   <li>JSON extraction ({@code ->}, {@code ->>}, {@code #>}, {@code #>>}) becomes {@code ||} (a binary
 *   operator of similar precedence that Calcite reads); other operators Calcite does not know
 *   ({@code @>}, {@code ~}, {@code &&}, ...) become {@code <>}: a conjunct over the same relations that,
 *   like them, is not an equality and so joins no equivalence class.
 *   <li>{@code DISTINCT ON (...)} becomes {@code DISTINCT} (both keep the sub-select from being pulled up).
 *   <li>{@code AS [NOT] MATERIALIZED} in WITH is removed; the names are remembered for the builder.
 *   <li>A trailing locking clause ({@code FOR UPDATE}, {@code FOR SHARE}, ...) is removed, and so are the
 *   {@code []} of array types, {@code AT TIME ZONE zone}, the word INTERVAL before a string, a cast to
 *   {@code ::interval} (with its unit and precision, if any), {@code COLLATE name}, and
 *   {@code INTO table} of SELECT INTO; {@code LIKE ANY} becomes {@code = ANY}, and an empty select list
 *   ({@code SELECT FROM t}) becomes {@code SELECT 1}; LATERAL before a function call is removed, and
 *   {@code POSITION(x IN y)} becomes {@code strpos(x, y)}.
 * </ul>
 * Thread-safe: stateless.
 */
public final class PostgresRewriter implements Rewriter {

    /** Operators Calcite's parser reads as PostgreSQL means them. */
    private static final Set<String> CALCITE_OPERATORS =
            Set.of("=", "<>", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "%", "||");
    private static final Set<String> JSON_EXTRACTION = Set.of("->", "->>", "#>", "#>>");

    @Override
    public Rewrite rewrite(String query) {
        List<String> notes = new ArrayList<>();
        String text = statementToQuery(query, notes);
        TokenStream t = PostgresLexicalRules.tokens(text);
        List<int[]> cuts = new ArrayList<>();      // {start, end, index into replacements}
        List<String> replacements = new ArrayList<>();
        Set<String> materialized = new HashSet<>();
        Set<String> notMaterialized = new HashSet<>();
        int depth = 0;
        boolean json = false;
        boolean operators = false;
        for (int i = 0; i < t.size(); i++) {
            TokenKind kind = t.kind(i);
            if (kind == TokenKind.LBRACKET && t.is(i + 1, TokenKind.RBRACKET)) {
                // int[] in a cast: the array type is irrelevant here, and Calcite reads no [] in types.
                add(cuts, replacements, t.start(i), t.end(i + 1), "");
                i++;
            } else if (kind == TokenKind.LPAREN || kind == TokenKind.LBRACKET) {
                depth++;
            } else if (kind == TokenKind.RPAREN || kind == TokenKind.RBRACKET) {
                depth--;
            } else if (kind == TokenKind.OPERATOR && !CALCITE_OPERATORS.contains(t.tokenText(i))) {
                boolean extraction = JSON_EXTRACTION.contains(t.tokenText(i));
                json |= extraction;
                operators |= !extraction;
                add(cuts, replacements, t.start(i), t.end(i), extraction ? " || " : " <> ");

            } else if (t.isWord(i, "interval") && t.is(i + 1, TokenKind.STRING) && !isIntervalUnit(t, i + 2)) {
                // INTERVAL '3' MONTH is standard SQL and Calcite reads it; PostgreSQL's INTERVAL '3 months' not.
                add(cuts, replacements, t.start(i), t.end(i), "");
                notes.add("INTERVAL 'text' read as a string");
            } else if (kind == TokenKind.TYPECAST && t.isWord(i + 1, "interval")) {
                // '30 days'::interval and '1 mon'::interval month, as pg_get_viewdef prints intervals: Calcite
                // reads neither. The value's type changes no join.
                int end = i + 1;
                if (isIntervalUnit(t, end + 1)) {
                    end++;
                    if (t.is(end + 1, Keyword.TO) && isIntervalUnit(t, end + 2)) {
                        end += 2;
                    }
                }
                boolean precision = t.is(end + 1, TokenKind.LPAREN) && t.is(end + 2, TokenKind.NUMBER)
                        && t.is(end + 3, TokenKind.RPAREN);
                if (precision) {
                    end += 3; // ::interval(0)
                }
                add(cuts, replacements, t.start(i), t.end(end), "");
                notes.add("::interval cast removed");
                i = end;
            } else if (t.isWord(i, "collate") && isName(t, i + 1)) {
                // a.name COLLATE "C", as pg_get_viewdef prints a collation: Calcite reads no COLLATE there.
                int end = i + 1;
                while (t.is(end + 1, TokenKind.DOT) && isName(t, end + 2)) {
                    end += 2;
                }
                add(cuts, replacements, t.start(i), t.end(end), "");
                notes.add("COLLATE removed");
                i = end;
            } else if (t.isWord(i, "lateral") && isName(t, i + 1)
                    && (t.is(i + 2, TokenKind.LPAREN) || t.is(i + 2, TokenKind.DOT))) {
                // LATERAL before a function call, which PostgreSQL allows and needs not (a FROM function may
                // always name the items before it); Calcite takes LATERAL before a sub-select only.
                add(cuts, replacements, t.start(i), t.end(i), "");
                notes.add("LATERAL before a function removed");
            } else if (t.isWord(i, "position") && t.is(i + 1, TokenKind.LPAREN)) {
                // POSITION((x) IN (y)), as pg_get_viewdef prints it, which Calcite refuses: read as a call
                // strpos(x, y) (the arguments' order changes no join).
                int in = depthOneIn(t, i + 1);
                if (in > 0) {
                    add(cuts, replacements, t.start(i), t.end(i), "strpos");
                    add(cuts, replacements, t.start(in), t.end(in), ",");
                    notes.add("POSITION read as a call");
                }
            } else if (t.is(i, Keyword.SELECT) && t.is(i + 1, Keyword.FROM)) {
                // SELECT FROM t (no columns, as in EXISTS (SELECT FROM ...)): Calcite wants a select list.
                add(cuts, replacements, t.end(i), t.end(i), " 1");
                notes.add("empty select list given a column");
            } else if (t.isWord(i, "at") && t.is(i + 1, Keyword.TIME) && t.is(i + 2, Keyword.ZONE) && i + 3 < t.size()
                    && (t.kind(i + 3).isConstant() || t.is(i + 3, TokenKind.IDENT))) {
                add(cuts, replacements, t.start(i), t.end(i + 3), "");
                notes.add("AT TIME ZONE removed");
                i += 3;
            } else if ((t.isWord(i, "like") || t.isWord(i, "ilike")) && (t.isWord(i + 1, "any")
                    || t.is(i + 1, Keyword.ALL) || t.isWord(i + 1, "some"))) {
                add(cuts, replacements, t.start(i), t.end(i), "=");
                notes.add("LIKE ANY/ALL read as = ANY/ALL");
            } else if (depth == 0 && t.is(i, Keyword.INTO) && t.is(0, Keyword.SELECT)) {
                // SELECT ... INTO new_table: PostgreSQL plans the SELECT alone.
                int name = i + 1;
                while (t.is(name, Keyword.TEMP) || t.is(name, Keyword.TEMPORARY) || t.is(name, Keyword.UNLOGGED)
                        || t.is(name, Keyword.TABLE)) {
                    name++;
                }
                while (t.is(name + 1, TokenKind.DOT)) {
                    name += 2;
                }
                int last = Math.min(name, t.size() - 1);
                add(cuts, replacements, t.start(i), t.end(last), "");
                notes.add("SELECT INTO read as SELECT");
                i = last;
            } else if (t.is(i, Keyword.DISTINCT) && t.is(i + 1, Keyword.ON) && t.is(i + 2, TokenKind.LPAREN)) {
                int close = matching(t, i + 2);
                add(cuts, replacements, t.start(i + 1), t.end(close), "");
                notes.add("DISTINCT ON read as DISTINCT");
                i = close;
            } else if (t.is(i, Keyword.AS) && t.isWord(i + 1, "materialized")) {
                cteName(t, i).ifPresent(materialized::add);
                add(cuts, replacements, t.start(i + 1), t.end(i + 1), "");
            } else if (t.is(i, Keyword.AS) && t.is(i + 1, Keyword.NOT) && t.isWord(i + 2, "materialized")) {
                cteName(t, i).ifPresent(notMaterialized::add);
                add(cuts, replacements, t.start(i + 1), t.end(i + 2), "");
            } else if (depth == 0 && t.is(i, Keyword.FOR) && (t.is(i + 1, Keyword.UPDATE) || t.isWord(i + 1, "share")
                    || t.is(i + 1, Keyword.NO) || t.is(i + 1, Keyword.KEY))) {
                add(cuts, replacements, t.start(i), text.length(), "");
                notes.add("locking clause removed");
                break;
            }
        }
        if (json) {
            notes.add("JSON operators read as ||");
        }
        if (operators) {
            notes.add("PostgreSQL-only operators read as <>");
        }
        if (!materialized.isEmpty() || !notMaterialized.isEmpty()) {
            notes.add("[NOT] MATERIALIZED removed from WITH");
        }
        return new Rewrite(apply(text, cuts, replacements), notes, materialized, notMaterialized);
    }

    /** UPDATE, DELETE and INSERT as the SELECT that PostgreSQL plans for them; other queries unchanged. */
    private static String statementToQuery(String query, List<String> notes) {
        TokenStream t = PostgresLexicalRules.tokens(query);
        if (t.size() == 0) {
            return query;
        }
        if (t.is(0, Keyword.UPDATE)) {
            int set = atDepth0(t, 1, Keyword.SET);
            if (set < 0) {
                return query;
            }
            int from = atDepth0(t, set, Keyword.FROM);
            int where = atDepth0(t, set, Keyword.WHERE);
            int returning = atDepth0(t, set, Keyword.RETURNING);
            int end = returning < 0 ? query.length() : t.start(returning);
            int setEnd = firstOf(t, end, from, where);
            String setList = hasSelect(t, set + 1, setEnd) ? query.substring(t.end(set), setEnd) : " 1";
            StringBuilder b = new StringBuilder("SELECT").append(setList).append(" FROM ")
                    .append(target(query, t, 1, set));
            if (from >= 0) {
                b.append(", ").append(query, t.end(from), where < 0 ? end : t.start(where));
            }
            if (where >= 0) {
                b.append(' ').append(query, t.start(where), end);
            }
            notes.add("UPDATE read as the SELECT PostgreSQL plans for it");
            return b.toString();
        }
        if (t.is(0, Keyword.DELETE) && t.is(1, Keyword.FROM)) {
            int using = atDepth0(t, 2, Keyword.USING);
            int where = atDepth0(t, 2, Keyword.WHERE);
            int returning = atDepth0(t, 2, Keyword.RETURNING);
            int end = returning < 0 ? query.length() : t.start(returning);
            int targetEnd = firstOfIndex(t, using, where, returning);
            StringBuilder b = new StringBuilder("SELECT 1 FROM ").append(target(query, t, 2, targetEnd));
            if (using >= 0) {
                b.append(", ").append(query, t.end(using), where < 0 ? end : t.start(where));
            }
            if (where >= 0) {
                b.append(' ').append(query, t.start(where), end);
            }
            notes.add("DELETE read as the SELECT PostgreSQL plans for it");
            return b.toString();
        }
        if (t.is(0, Keyword.MERGE) && t.is(1, Keyword.INTO)) {
            int using = atDepth0(t, 2, Keyword.USING);
            int on = using < 0 ? -1 : atDepth0(t, using, Keyword.ON);
            int when = on < 0 ? -1 : atDepth0(t, on, Keyword.WHEN);
            if (when < 0) {
                return query;
            }
            notes.add("MERGE read as the join PostgreSQL plans for it");
            return "SELECT 1 FROM " + target(query, t, 2, using) + " JOIN " + query.substring(t.end(using), t.start(on))
                    + " ON " + query.substring(t.end(on), t.start(when));
        }
        if (t.is(0, Keyword.INSERT)) {
            int start = -1;
            for (int i = 1, depth = 0; i < t.size() && start < 0; i++) {
                depth += depthChange(t, i);
                if (depth == 0 && (t.is(i, Keyword.SELECT) || t.is(i, Keyword.WITH) || t.is(i, Keyword.VALUES))) {
                    start = i;
                }
            }
            if (start < 0) {
                return "SELECT 1";
            }
            int end = query.length();
            for (int i = start, depth = 0; i < t.size(); i++) {
                depth += depthChange(t, i);
                if (depth == 0 && (t.is(i, Keyword.RETURNING) || t.is(i, Keyword.ON) && t.isWord(i + 1, "conflict"))) {
                    end = t.start(i);
                    break;
                }
            }
            notes.add("INSERT read as its source query");
            return query.substring(t.start(start), end);
        }
        return query;
    }

    /** The target table and alias of UPDATE/DELETE, tokens [from, to), without ONLY and a trailing '*'. */
    private static String target(String query, TokenStream t, int from, int to) {
        int first = t.isWord(from, "only") ? from + 1 : from;
        int last = to - 1;
        if (last < first) {
            return "\"?\"";
        }
        String text = query.substring(t.start(first), t.end(last));
        return text.replace("*", " ");
    }

    private static boolean hasSelect(TokenStream t, int from, int toOffset) {
        for (int i = from; i < t.size() && t.start(i) < toOffset; i++) {
            if (t.is(i, Keyword.SELECT)) {
                return true;
            }
        }
        return false;
    }

    private static int firstOf(TokenStream t, int end, int... tokens) {
        int first = end;
        for (int i : tokens) {
            if (i >= 0) {
                first = Math.min(first, t.start(i));
            }
        }
        return first;
    }

    private static int firstOfIndex(TokenStream t, int... tokens) {
        int first = t.size();
        for (int i : tokens) {
            if (i >= 0) {
                first = Math.min(first, i);
            }
        }
        return first;
    }

    static int atDepth0(TokenStream t, int from, Keyword word) {
        for (int i = from, depth = 0; i < t.size(); i++) {
            depth += depthChange(t, i);
            if (depth == 0 && t.is(i, word)) {
                return i;
            }
        }
        return -1;
    }

    private static int depthChange(TokenStream t, int i) {
        TokenKind k = t.kind(i);
        return k == TokenKind.LPAREN || k == TokenKind.LBRACKET ? 1
                : k == TokenKind.RPAREN || k == TokenKind.RBRACKET ? -1 : 0;
    }

    /** Index of the parenthesis closing the one at {@code open}, or the last token. */
    private static int matching(TokenStream t, int open) {
        int depth = 0;
        for (int i = open; i < t.size(); i++) {
            depth += depthChange(t, i);
            if (depth == 0) {
                return i;
            }
        }
        return t.size() - 1;
    }

    /** The CTE name before {@code name [(columns)] AS}. */
    private static java.util.Optional<String> cteName(TokenStream t, int as) {
        int i = as - 1;
        if (t.is(i, TokenKind.RPAREN)) {
            int depth = 0;
            for (; i >= 0; i--) {
                depth -= depthChange(t, i);
                if (depth == 0) {
                    break;
                }
            }
            i--;
        }
        if (t.is(i, TokenKind.IDENT)) {
            return java.util.Optional.of(t.tokenText(i).toLowerCase(Locale.ROOT));
        }
        if (t.is(i, TokenKind.QUOTED_IDENT)) {
            String q = t.tokenText(i);
            return java.util.Optional.of(q.substring(1, q.length() - 1).replace("\"\"", "\""));
        }
        return java.util.Optional.empty();
    }

    private static void add(List<int[]> cuts, List<String> replacements, int start, int end, String replacement) {
        cuts.add(new int[] {start, end, replacements.size()});
        replacements.add(replacement);
    }

    private static String apply(String text, List<int[]> cuts, List<String> replacements) {
        if (cuts.isEmpty()) {
            return text;
        }
        // In text order: a rewrite may cut ahead of the token it started at (POSITION's IN), and those it
        // then makes inside that stretch come after it in the list.
        cuts.sort(Comparator.comparingInt((int[] cut) -> cut[0]));
        StringBuilder b = new StringBuilder(text.length());
        int at = 0;
        for (int[] cut : cuts) {
            if (cut[0] < at) {
                continue;
            }
            b.append(text, at, cut[0]).append(replacements.get(cut[2]));
            at = cut[1];
        }
        return b.append(text, Math.min(at, text.length()), text.length()).toString();
    }

    /** The IN directly inside the parentheses opening at {@code open}; -1 when there is none. */
    private static int depthOneIn(TokenStream t, int open) {
        int depth = 0;
        for (int k = open; k < t.size(); k++) {
            if (t.is(k, TokenKind.LPAREN)) {
                depth++;
            } else if (t.is(k, TokenKind.RPAREN) && --depth == 0) {
                return -1;
            } else if (depth == 1 && t.is(k, Keyword.IN)) {
                return k;
            }
        }
        return -1;
    }

    /** An identifier, plain or quoted. */
    private static boolean isName(TokenStream t, int i) {
        return t.is(i, TokenKind.IDENT) || t.is(i, TokenKind.QUOTED_IDENT);
    }

    /** The unit of a standard interval literal: {@code INTERVAL '3' MONTH}, {@code INTERVAL '1' DAY TO SECOND}. */
    private static boolean isIntervalUnit(TokenStream t, int i) {
        return t.isWord(i, "year") || t.isWord(i, "month") || t.isWord(i, "day") || t.isWord(i, "hour")
                || t.isWord(i, "minute") || t.isWord(i, "second");
    }
}
