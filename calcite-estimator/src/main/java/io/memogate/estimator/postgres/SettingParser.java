package io.memogate.estimator.postgres;

import io.memogate.estimator.lexer.Keyword;
import io.memogate.estimator.lexer.Literals;
import io.memogate.estimator.lexer.SettingChange.Action;
import io.memogate.estimator.lexer.SettingChange.Scope;
import io.memogate.estimator.lexer.SettingChange;
import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads the {@link SettingChange} a PostgreSQL statement makes out of its tokens, for any setting; callers
 * pick the ones that change planning (join_collapse_limit, from_collapse_limit, geqo, geqo_threshold, ...).
 * Recognized forms (<a href="https://www.postgresql.org/docs/current/sql-set.html">SET</a>,
 * <a href="https://www.postgresql.org/docs/current/sql-reset.html">RESET</a>,
 * <a href="https://www.postgresql.org/docs/current/functions-admin.html#FUNCTIONS-ADMIN-SET">set_config</a>):
 * <ul>
 * <li>{@code SET [SESSION|LOCAL] name {TO|=} value[, value...]} and {@code ... {TO|=} DEFAULT};</li>
 * <li>the special forms {@code SET TIME ZONE} (timezone, LOCAL means DEFAULT), {@code SET SCHEMA}
 *     (search_path), {@code SET NAMES} (client_encoding), {@code SET ROLE} (role),
 *     {@code SET SESSION AUTHORIZATION} (session_authorization);</li>
 * <li>{@code RESET name}, {@code RESET ALL}, {@code RESET TIME ZONE}, {@code RESET SESSION AUTHORIZATION};</li>
 * <li>{@code SELECT [pg_catalog.]set_config('name', 'value', is_local)}, the whole statement, only with
 *     constant arguments.</li>
 * </ul>
 * {@code SET TRANSACTION}, {@code SET CONSTRAINTS} and {@code SET SESSION CHARACTERISTICS} change no setting
 * by name and give nothing.
 */
public final class SettingParser {

    private final TokenStream ts;
    private final int size;

    private SettingParser(TokenStream ts) {
        this.ts = ts;
        this.size = ts.size();
    }

    /** The change one statement's text makes, if it is one of the forms above. */
    public static Optional<SettingChange> of(String statement) {
        return of(TokenStream.of(statement, PostgresLexicalRules.RULES));
    }

    /** The change the statement made of all tokens of the stream makes. */
    public static Optional<SettingChange> of(TokenStream tokens) {
        return new SettingParser(tokens).parse();
    }

    private Optional<SettingChange> parse() {
        if (size == 0) {
            return Optional.empty();
        }
        return switch (ts.keyword(0)) {
            case SET -> set();
            case RESET -> reset();
            case SELECT -> setConfig();
            default -> Optional.empty();
        };
    }

    private Optional<SettingChange> set() {
        int i = 1;
        Scope scope = Scope.SESSION;
        if (ts.is(i, Keyword.LOCAL)) {
            scope = Scope.LOCAL;
            i++;
        } else if (ts.is(i, Keyword.SESSION) && !ts.is(i + 1, Keyword.AUTHORIZATION)
                && !ts.is(i + 1, Keyword.CHARACTERISTICS)) {
            i++;
        }
        switch (i < size ? ts.keyword(i) : Keyword.NONE) {
            case TRANSACTION, CONSTRAINTS, CHARACTERISTICS:
                return Optional.empty();
            case TIME:
                return ts.is(i + 1, Keyword.ZONE) ? value("timezone", i + 2, scope, true) : Optional.empty();
            case SCHEMA:
                return value("search_path", i + 1, scope, false);
            case NAMES:
                return value("client_encoding", i + 1, scope, false);
            case ROLE:
                return value("role", i + 1, scope, false);
            case SESSION:
                return ts.is(i + 1, Keyword.AUTHORIZATION)
                        ? value("session_authorization", i + 2, scope, false) : Optional.empty();
            default:
                break;
        }
        Optional<Literals.Name> name = Literals.qualifiedName(ts, i);
        if (name.isEmpty()) {
            return Optional.empty();
        }
        int to = name.get().after();
        if (!ts.is(to, Keyword.TO) && !(ts.is(to, TokenKind.OPERATOR) && ts.tokenText(to).equals("="))) {
            return Optional.empty();
        }
        return value(name.get().text().toLowerCase(Locale.ROOT), to + 1, scope, false);
    }

    private Optional<SettingChange> reset() {
        if (ts.is(1, Keyword.ALL) && size == 2) {
            return Optional.of(new SettingChange("", Action.RESET_ALL, Optional.empty(), Scope.SESSION));
        }
        String name;
        if (ts.is(1, Keyword.TIME) && ts.is(2, Keyword.ZONE)) {
            name = "timezone";
        } else if (ts.is(1, Keyword.SESSION) && ts.is(2, Keyword.AUTHORIZATION)) {
            name = "session_authorization";
        } else {
            Optional<Literals.Name> n = Literals.qualifiedName(ts, 1);
            if (n.isEmpty() || n.get().after() != size) {
                return Optional.empty();
            }
            name = n.get().text().toLowerCase(Locale.ROOT);
        }
        return Optional.of(new SettingChange(name, Action.RESET, Optional.empty(), Scope.SESSION));
    }

    /** The value from token i to the end: DEFAULT, or a list of constants and words. */
    private Optional<SettingChange> value(String name, int i, Scope scope, boolean localIsDefault) {
        if (i >= size) {
            return Optional.empty();
        }
        if (size == i + 1 && (ts.is(i, Keyword.DEFAULT) || (localIsDefault && ts.is(i, Keyword.LOCAL)))) {
            return Optional.of(new SettingChange(name, Action.SET_DEFAULT, Optional.empty(), scope));
        }
        StringBuilder value = new StringBuilder();
        for (int p = i; p < size; p++) {
            String element = element(p);
            if (element == null) {
                // a form this parser does not take apart (INTERVAL '...' HOUR TO MINUTE): the text as written
                return Optional.of(new SettingChange(name, Action.SET,
                        Optional.of(ts.text().substring(ts.start(i), ts.end(size - 1))), scope));
            }
            value.append(p > i ? ", " : "").append(element);
            p += isSigned(p) ? 2 : 1; // now at the comma, if any
            if (p < size && !ts.is(p, TokenKind.COMMA)) {
                return Optional.of(new SettingChange(name, Action.SET,
                        Optional.of(ts.text().substring(ts.start(i), ts.end(size - 1))), scope));
            }
        }
        return Optional.of(new SettingChange(name, Action.SET, Optional.of(value.toString()), scope));
    }

    /** One list element at p as the server reads it, or null when it is not a constant or a word. */
    private String element(int p) {
        if (isSigned(p)) {
            return ts.tokenText(p) + ts.tokenText(p + 1);
        }
        return switch (ts.kind(p)) {
            case STRING, DOLLAR_STRING -> Literals.string(ts, p);
            case NUMBER -> ts.tokenText(p);
            case IDENT, QUOTED_IDENT -> Literals.identifier(ts, p).orElseThrow();
            default -> null;
        };
    }

    private boolean isSigned(int p) {
        return ts.is(p, TokenKind.OPERATOR) && ts.is(p + 1, TokenKind.NUMBER)
                && (ts.tokenText(p).equals("-") || ts.tokenText(p).equals("+"));
    }

    /** {@code SELECT [pg_catalog.]set_config('name', 'value', is_local)} and nothing else. */
    private Optional<SettingChange> setConfig() {
        int i = 1;
        if (ts.is(i, Keyword.PG_CATALOG) && ts.is(i + 1, TokenKind.DOT)) {
            i += 2;
        }
        if (!ts.is(i, Keyword.SET_CONFIG) || !ts.is(i + 1, TokenKind.LPAREN) || !ts.is(i + 2, TokenKind.STRING)
                || !ts.is(i + 3, TokenKind.COMMA) || !ts.is(i + 5, TokenKind.COMMA) || !ts.is(i + 7, TokenKind.RPAREN)
                || size != i + 8) {
            return Optional.empty();
        }
        String value = switch (ts.kind(i + 4)) {
            case STRING, DOLLAR_STRING -> Literals.string(ts, i + 4);
            case NUMBER -> ts.tokenText(i + 4);
            default -> null;
        };
        Boolean local = switch (ts.kind(i + 6)) {
            case IDENT -> ts.is(i + 6, Keyword.TRUE) ? Boolean.TRUE : ts.is(i + 6, Keyword.FALSE) ? Boolean.FALSE : null;
            case STRING -> bool(Literals.string(ts, i + 6));
            default -> null;
        };
        if (value == null || local == null) {
            return Optional.empty();
        }
        String name = Literals.string(ts, i + 2).trim().toLowerCase(Locale.ROOT);
        return Optional.of(new SettingChange(name, Action.SET, Optional.of(value),
                local ? Scope.LOCAL : Scope.SESSION));
    }

    /** A boolean as the server's boolin reads it (unique prefixes of true/false/yes/no, on/off, 1/0). */
    private static Boolean bool(String s) {
        String v = s.trim().toLowerCase(Locale.ROOT);
        if (v.isEmpty()) {
            return null;
        }
        if ("true".startsWith(v) || "yes".startsWith(v) || v.equals("on") || v.equals("1")) {
            return Boolean.TRUE;
        }
        if ("false".startsWith(v) || "no".startsWith(v) || v.equals("off") || v.equals("0")) {
            return Boolean.FALSE;
        }
        return null;
    }
}
