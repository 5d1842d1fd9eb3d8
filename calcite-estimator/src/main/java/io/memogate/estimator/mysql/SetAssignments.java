package io.memogate.estimator.mysql;

import io.memogate.estimator.lexer.Keyword;
import io.memogate.estimator.lexer.Literals;
import io.memogate.estimator.lexer.SettingChange;
import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The system variables a MySQL or MariaDB SET gives the session, read off its tokens
 * (<a href="https://dev.mysql.com/doc/refman/8.4/en/set-variable.html">SET Syntax for Variable Assignment</a>,
 * <a href="https://mariadb.com/kb/en/set-statement/">MariaDB's SET STATEMENT</a>):
 * <ul>
 * <li>{@code SET [SESSION|LOCAL] name = value [, ...]}, {@code @@name}, {@code @@session.name},
 *     {@code @@local.name}, {@code :=} as well as {@code =}; each comma-separated assignment may name its own
 *     scope;</li>
 * <li>{@code SET STATEMENT name = value [, ...] FOR statement}: the settings of that statement alone
 *     ({@link #ofSetStatement});</li>
 * <li>a value is a number, a string or a word ({@code ON}, {@code OFF}); {@code DEFAULT} gives the variable
 *     back its global value.</li>
 * </ul>
 * GLOBAL and PERSIST assignments and user variables ({@code @name}) change nothing the session plans with and
 * are left out; so is a value that is an expression, which the server computes. Never throws on any text.
 */
public final class SetAssignments {

    private final TokenStream ts;
    private final int end;

    private SetAssignments(TokenStream ts, int end) {
        this.ts = ts;
        this.end = end;
    }

    /** The session variables a SET statement (all tokens of the stream) assigns, in order; empty for any other. */
    public static List<SettingChange> of(TokenStream statement) {
        if (!statement.is(0, Keyword.SET) || isSetStatement(statement)) {
            return List.of();
        }
        return new SetAssignments(statement, statement.size()).read(1);
    }

    /** The settings of a {@code SET STATEMENT ... FOR} prefix, in order; empty when the statement has none. */
    public static List<SettingChange> ofSetStatement(TokenStream statement) {
        if (!isSetStatement(statement)) {
            return List.of();
        }
        int forAt = -1;
        for (int i = 2, depth = 0; i < statement.size(); i++) {
            if (statement.is(i, TokenKind.LPAREN)) {
                depth++;
            } else if (statement.is(i, TokenKind.RPAREN)) {
                depth--;
            } else if (depth == 0 && statement.is(i, Keyword.FOR)) {
                forAt = i;
                break;
            }
        }
        return forAt < 0 ? List.of() : new SetAssignments(statement, forAt).read(2);
    }

    /** Whether the statement is MariaDB's {@code SET STATEMENT ... FOR ...}. */
    public static boolean isSetStatement(TokenStream statement) {
        return statement.is(0, Keyword.SET) && statement.isWord(1, "statement") && statement.is(2, TokenKind.IDENT);
    }

    private List<SettingChange> read(int from) {
        List<SettingChange> changes = new ArrayList<>();
        int i = from;
        while (i < end) {
            int next = nextComma(i);
            assignment(i, next).ifPresent(changes::add);
            i = next + 1;
        }
        return List.copyOf(changes);
    }

    /** One {@code [scope] name = value} between {@code from} and {@code to}. */
    private Optional<SettingChange> assignment(int from, int to) {
        int i = from;
        boolean session = true;
        if (ts.isWord(i, "global") || ts.isWord(i, "persist") || ts.isWord(i, "persist_only")) {
            session = false;
            i++;
        } else if (ts.isWord(i, "session") || ts.isWord(i, "local")) {
            i++;
        }
        String at = ts.is(i, TokenKind.OPERATOR) ? ts.tokenText(i) : "";
        if (at.equals("@")) {
            return Optional.empty(); // a user variable
        }
        if (at.equals("@@")) {
            i++;
            if (ts.is(i + 1, TokenKind.DOT)) {
                String scope = ts.tokenText(i).toLowerCase(Locale.ROOT);
                session = scope.equals("session") || scope.equals("local");
                i += 2;
            }
        }
        Optional<String> name = name(i);
        if (name.isEmpty() || !session) {
            return Optional.empty();
        }
        i++;
        String assign = ts.is(i, TokenKind.OPERATOR) ? ts.tokenText(i) : ts.is(i, TokenKind.COLON_EQUALS) ? ":=" : "";
        String sign = "";
        if (assign.equals("=-") || assign.equals(":=") && ts.is(i + 1, TokenKind.OPERATOR)
                && ts.tokenText(i + 1).equals("-")) {
            sign = "-";
        } else if (!assign.equals("=") && !assign.equals(":=")) {
            return Optional.empty();
        }
        i += assign.equals(":=") && !sign.isEmpty() ? 2 : 1;
        if (i != to - 1) {
            return Optional.empty(); // an expression: the server computes it
        }
        return value(i, sign).map(value -> value.equalsIgnoreCase("default")
                ? new SettingChange(name.get(), SettingChange.Action.SET_DEFAULT, Optional.empty(),
                        SettingChange.Scope.SESSION)
                : new SettingChange(name.get(), SettingChange.Action.SET, Optional.of(value),
                        SettingChange.Scope.SESSION));
    }

    private Optional<String> name(int i) {
        if (ts.is(i, TokenKind.IDENT)) {
            return Optional.of(ts.tokenText(i).toLowerCase(Locale.ROOT));
        }
        if (ts.is(i, TokenKind.QUOTED_IDENT)) {
            return Literals.identifier(ts, i).map(n -> n.toLowerCase(Locale.ROOT));
        }
        return Optional.empty();
    }

    private Optional<String> value(int i, String sign) {
        if (ts.is(i, TokenKind.NUMBER)) {
            return Optional.of(sign + ts.tokenText(i));
        }
        if (!sign.isEmpty()) {
            return Optional.empty();
        }
        if (ts.is(i, TokenKind.STRING)) {
            return Optional.of(Literals.string(ts, i));
        }
        if (ts.is(i, TokenKind.IDENT)) {
            return Optional.of(ts.tokenText(i).toLowerCase(Locale.ROOT));
        }
        return Optional.empty();
    }

    private int nextComma(int from) {
        int depth = 0;
        for (int i = from; i < end; i++) {
            if (ts.is(i, TokenKind.LPAREN)) {
                depth++;
            } else if (ts.is(i, TokenKind.RPAREN)) {
                depth--;
            } else if (depth == 0 && ts.is(i, TokenKind.COMMA)) {
                return i;
            }
        }
        return end;
    }
}
