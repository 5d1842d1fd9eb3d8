package io.memogate.estimator;

import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.estimator.lexer.Keyword;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.Literals;
import io.memogate.estimator.lexer.SettingChange;
import io.memogate.estimator.lexer.StatementAnalysis;
import io.memogate.estimator.lexer.StatementKind;
import io.memogate.estimator.lexer.StatementSpan;
import io.memogate.estimator.lexer.StatementSplitter;
import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import io.memogate.estimator.postgres.PlpgsqlStatements;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Functions and procedures whose queries the server plans while they run: a PL/pgSQL routine plans each
 * query of its body when it reaches it, a {@code LANGUAGE sql} function that is not inlined plans its body's
 * statements at its first call in a query. A statement that calls one needs, at some point while it runs,
 * what the largest of those queries needs. Whoever reads the catalog ({@code pg_proc}) passes the routines
 * along; their queries are read off the bodies once, here.
 *
 * <p>Routines are known by their unqualified names, folded to lower case; a qualified call picks those of
 * its schema. Overloads are not told apart (that takes argument types): a call counts every routine of its
 * name. The few routines whose SETs outlast them are read for those once, here too ({@link #settingsLeftBy}).
 * Immutable; compared by identity, as {@link ViewDefinitions}.
 *
 * <p>Routines are PostgreSQL's ({@code pg_proc}, PL/pgSQL and SQL bodies), read with PostgreSQL's lexer: a
 * catalog reader builds them without a dialect at hand. Another server's routines would come with that
 * server's readers.
 */
public final class RoutineDefinitions {

    /** How bodies and the statements that call routines are read: PostgreSQL's analyzer. */
    static final LexicalAnalyzer LEXER = PostgresLexicalRules.analyzer();

    /** No routine known: a call's queries are not seen. */
    public static final RoutineDefinitions NONE = new RoutineDefinitions(Map.of(), 0, Map.of());

    /** The languages whose bodies are read. */
    public enum Language { PLPGSQL, SQL }

    /**
     * One function or procedure.
     *
     * @param schema the schema it is in, as stored
     * @param name its name, as stored
     * @param body its source ({@code prosrc}, or for a {@code BEGIN ATOMIC} body its statements)
     * @param settings its {@code SET} clauses as {@code pg_proc.proconfig} stores them ({@code name=value}): in
     *     force while it runs, so its queries are planned under them
     * @param queries what its body has the server plan, read off the body
     * @param minArguments the fewest arguments a call passes (those without defaults)
     * @param maxArguments the most ({@link #ANY_NUMBER} for a VARIADIC one, or when unknown): a call passing
     *     another number calls an overload of the same name, not this routine
     */
    public record Routine(String schema, String name, Language language, String body, List<String> settings,
                          List<String> queries, int minArguments, int maxArguments) {

        public static final int ANY_NUMBER = Integer.MAX_VALUE;

        public Routine {
            Objects.requireNonNull(schema, "schema");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(language, "language");
            Objects.requireNonNull(body, "body");
            settings = List.copyOf(settings);
            queries = List.copyOf(queries);
            if (minArguments < 0 || maxArguments < minArguments) {
                throw new IllegalArgumentException("arguments " + minArguments + ".." + maxArguments);
            }
        }

        /** A routine without SET clauses, its queries read off its body. */
        public static Routine of(String schema, String name, Language language, String body) {
            return of(schema, name, language, body, List.of());
        }

        /** A routine with its SET clauses ({@code name=value}), its queries read off its body. */
        public static Routine of(String schema, String name, Language language, String body, List<String> settings) {
            return new Routine(schema, name, language, body, settings, language == Language.PLPGSQL
                    ? PlpgsqlStatements.of(body) : statements(body), 0, ANY_NUMBER);
        }

        /** The same routine taking {@code min} to {@code max} arguments ({@link #ANY_NUMBER}: no upper bound). */
        public Routine withArguments(int min, int max) {
            return new Routine(schema, name, language, body, settings, queries, min, max);
        }

        boolean takes(int arguments) {
            return arguments >= minArguments && arguments <= maxArguments;
        }

        /** {@code caller}'s settings with this routine's SET clauses over them, as while it runs. */
        public DialectSettings plannedUnder(DialectSettings caller) {
            DialectSettings settings = caller;
            for (String entry : this.settings) {
                int equals = entry.indexOf('=');
                if (equals > 0) {
                    settings = settings.with(entry.substring(0, equals), entry.substring(equals + 1));
                }
            }
            return settings;
        }

        /** A SQL body's statements; a SQL-standard {@code RETURN expression} is planned as a SELECT of it. */
        private static List<String> statements(String body) {
            List<String> statements = new ArrayList<>();
            for (StatementSpan span : StatementSplitter.split(body, LEXER.rules()).statements()) {
                String statement = body.substring(span.start(), span.end());
                TokenStream tokens = LEXER.tokens(statement);
                statements.add(tokens.isWord(0, "return") && tokens.size() > 1
                        ? "SELECT " + statement.substring(tokens.start(1)) : statement);
            }
            return statements;
        }
    }

    /** Per folded name, the routines of that name. */
    private final Map<String, List<Routine>> routines;
    private final int size;
    /** The routines that leave a setting changed in the session that called them ({@link SettingsLeft}). */
    private final Map<Routine, List<SettingChange>> settingsLeft;
    /** Their folded names, sought in a statement's text before it is read for calls of them. */
    private final Set<String> settingsLeftNames;

    private RoutineDefinitions(Map<String, List<Routine>> routines, int size,
                               Map<Routine, List<SettingChange>> settingsLeft) {
        this.routines = routines;
        this.size = size;
        this.settingsLeft = settingsLeft;
        this.settingsLeftNames = settingsLeft.keySet().stream().map(routine -> fold(routine.name()))
                .collect(Collectors.toUnmodifiableSet());
    }

    public static RoutineDefinitions of(Collection<Routine> routines) {
        Map<String, List<Routine>> byName = new HashMap<>();
        for (Routine routine : routines) {
            byName.computeIfAbsent(fold(routine.name()), name -> new ArrayList<>()).add(routine);
        }
        // In one order whatever order the catalog listed them in, so that a read again compares equal.
        byName.replaceAll((name, list) -> list.stream()
                .sorted(Comparator.comparing(Routine::schema).thenComparing(Routine::body)
                        .thenComparing(routine -> String.join(",", routine.settings()))
                        .thenComparingInt(Routine::minArguments).thenComparingInt(Routine::maxArguments)).toList());
        if (byName.isEmpty()) {
            return NONE;
        }
        RoutineDefinitions definitions = new RoutineDefinitions(Map.copyOf(byName), routines.size(), Map.of());
        Map<Routine, List<SettingChange>> left = SettingsLeft.of(definitions, routines);
        return left.isEmpty() ? definitions : new RoutineDefinitions(definitions.routines, definitions.size, left);
    }

    /** Whether some routine leaves a setting changed in its session: if not, {@link #mayLeaveSettings} is false. */
    public boolean leaveSettings() {
        return !settingsLeftNames.isEmpty();
    }

    /**
     * Whether {@code sql} may call a routine that leaves a setting changed in its session ({@link
     * #settingsLeftBy}): it holds the name of one, in any case. A scan, no lexing; false at once when no routine
     * leaves any, the common case.
     */
    public boolean mayLeaveSettings(String sql) {
        if (settingsLeftNames.isEmpty()) {
            return false; // and no iterator made for each statement
        }
        for (String name : settingsLeftNames) {
            // Each statement of such a database passes here on its event loop: compare the first character, as
            // regionMatches folds it, before asking regionMatches for the whole name at a position (not for a
            // surrogate, which regionMatches folds as part of its code point).
            char first = name.charAt(0);
            boolean byFirst = !Character.isSurrogate(first);
            char folded = caseFolded(first);
            for (int i = 0, last = sql.length() - name.length(); i <= last; i++) {
                if ((!byFirst || caseFolded(sql.charAt(i)) == folded)
                        && sql.regionMatches(true, i, name, 0, name.length())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A character as {@link String#regionMatches(boolean, int, String, int, int)} compares it, ignoring case. */
    private static char caseFolded(char c) {
        return Character.toLowerCase(Character.toUpperCase(c));
    }

    /**
     * The setting changes that running the statement {@code st} of {@code text} leaves in its session besides
     * its own SET: those of the routines it calls, and of a DO block's PL/pgSQL body and the routines that calls,
     * in order ({@link SettingsLeft}). None when it does not run what it names (a plain EXPLAIN, DDL, a cursor's
     * DECLARE) or over the lexer's maximum.
     */
    public List<SettingChange> settingsLeftBy(String text, StatementAnalysis st) {
        if (st.oversized() || (settingsLeft.isEmpty() && st.kind() != StatementKind.DO)) {
            return List.of();
        }
        TokenStream tokens = LEXER.tokens(text.substring(st.span().start(), st.span().end()));
        List<SettingChange> changes = new ArrayList<>();
        if (st.kind() == StatementKind.DO) {
            List<String> body = LEXER.reader().codeBlock(tokens).queries().orElse(List.of());
            for (String query : body) {
                SettingChange own = SettingsLeft.change(query);
                if (own != null) {
                    changes.add(own);
                } else if (!settingsLeft.isEmpty()) {
                    calledIn(query).forEach(routine -> changes.addAll(settingsLeft.getOrDefault(routine, List.of())));
                }
            }
        } else if (IndirectQueries.runsCalls(st, tokens)) {
            calledIn(tokens).forEach(routine -> changes.addAll(settingsLeft.getOrDefault(routine, List.of())));
        }
        return changes;
    }

    /**
     * The routines {@code sql} calls: a name, qualified or not, right before an opening parenthesis, that a
     * routine bears and whose arguments the call's number fits (an overload taking another number is not
     * called), unless the parenthesis holds a column list (after INTO, AS, TABLE or WITH, a sub-select's
     * alias, or a CTE's name followed by AS). In order of first call, each once. Overloads that differ only in
     * their arguments' types are all counted: telling them apart needs the arguments' types.
     */
    public List<Routine> calledIn(String sql) {
        return routines.isEmpty() ? List.of() : calledIn(LEXER.tokens(sql));
    }

    /** As {@link #calledIn(String)}, for a statement's tokens. */
    public List<Routine> calledIn(TokenStream ts) {
        if (routines.isEmpty()) {
            return List.of();
        }
        Set<Routine> called = new LinkedHashSet<>();
        for (int i = 0; i + 1 < ts.size(); i++) {
            if (!ts.is(i + 1, TokenKind.LPAREN) || isColumnList(ts, i)) {
                continue;
            }
            List<Routine> named = Literals.identifier(ts, i).map(name -> routines.get(fold(name))).orElse(null);
            if (named == null) {
                continue;
            }
            String schema = ts.is(i - 1, TokenKind.DOT) ? Literals.identifier(ts, i - 2).orElse(null) : null;
            int arguments = arguments(ts, i + 1);
            for (Routine routine : named) {
                if ((schema == null || routine.schema().equals(schema)) && routine.takes(arguments)) {
                    called.add(routine);
                }
            }
        }
        return List.copyOf(called);
    }

    /**
     * How many arguments the call whose parenthesis opens at {@code open} passes: its commas outside nested
     * parentheses and brackets, plus one, or none for {@code ()}. A named argument ({@code p => 1}) counts as
     * one; an unclosed parenthesis counts what there is.
     */
    private static int arguments(TokenStream ts, int open) {
        if (ts.is(open + 1, TokenKind.RPAREN)) {
            return 0;
        }
        int depth = 0;
        int commas = 0;
        for (int i = open + 1; i < ts.size(); i++) {
            if (ts.is(i, TokenKind.LPAREN) || ts.is(i, TokenKind.LBRACKET)) {
                depth++;
            } else if (ts.is(i, TokenKind.RPAREN) || ts.is(i, TokenKind.RBRACKET)) {
                if (depth-- == 0) {
                    break;
                }
            } else if (depth == 0 && ts.is(i, TokenKind.COMMA)) {
                commas++;
            }
        }
        return commas + 1;
    }

    /** {@code INSERT INTO name (a, b)}, {@code AS name (a)}, {@code WITH name (a) AS (...)}: not a call. */
    private static boolean isColumnList(TokenStream ts, int name) {
        int before = ts.is(name - 1, TokenKind.DOT) ? name - 3 : name - 1;
        if (ts.is(before, Keyword.INTO) || ts.is(before, Keyword.AS) || ts.is(before, Keyword.TABLE)
                || ts.is(before, Keyword.WITH) || ts.is(before, Keyword.RECURSIVE)
                || ts.is(before, TokenKind.RPAREN)) { // (values ...) v(a): a sub-select's alias, no call
            return true;
        }
        int depth = 0;
        for (int i = name + 1; i < ts.size(); i++) {
            if (ts.is(i, TokenKind.LPAREN)) {
                depth++;
            } else if (ts.is(i, TokenKind.RPAREN) && --depth == 0) {
                // A later CTE: , name (a) AS [[NOT] MATERIALIZED] (query); not a call aliased after a comma.
                int query = ts.is(i + 2, Keyword.NOT) ? i + 4 : ts.is(i + 2, Keyword.MATERIALIZED) ? i + 3 : i + 2;
                return ts.is(before, TokenKind.COMMA) && ts.is(i + 1, Keyword.AS) && ts.is(query, TokenKind.LPAREN);
            }
        }
        return false;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return routines.isEmpty();
    }

    /** Whether {@code other} holds the same routines (a read again that found nothing new). */
    public boolean sameContent(RoutineDefinitions other) {
        return routines.equals(other.routines);
    }

    private static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return "RoutineDefinitions[" + size + " routines]";
    }
}
