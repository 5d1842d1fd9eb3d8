package io.memogate.estimator.lexer;

import java.util.Objects;
import java.util.Optional;

/**
 * A change of a run-time setting the statement makes, for any setting; callers pick the ones that change
 * planning (join_collapse_limit, from_collapse_limit, geqo, geqo_threshold, ...). Recognized forms
 * (<a href="https://www.postgresql.org/docs/current/sql-set.html">SET</a>,
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
 *
 * @param name the setting, lower case ("" for RESET ALL)
 * @param action what happens to it
 * @param value the new value for {@link Action#SET}, without quotes; a list is joined with ", " as the server
 *     does; empty for the other actions
 * @param scope SESSION, or LOCAL for {@code SET LOCAL} and {@code set_config(..., true)}: until the end of
 *     the transaction
 */
public record SettingChange(String name, Action action, Optional<String> value, Scope scope) {

    public enum Action {
        /** Set to {@link #value()}. */
        SET,
        /** {@code SET name TO DEFAULT}: back to the value the session would have without SET. */
        SET_DEFAULT,
        /** {@code RESET name}: the same as SET_DEFAULT. */
        RESET,
        /** {@code RESET ALL}: every setting back to its default. */
        RESET_ALL
    }

    public enum Scope { SESSION, LOCAL }

    public SettingChange {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(scope, "scope");
    }

    /** The change one statement's text makes, if it is one of the forms above. */
    public static Optional<SettingChange> of(String statement) {
        return of(TokenStream.of(statement));
    }

    /** The change the statement made of all tokens of the stream makes. */
    public static Optional<SettingChange> of(TokenStream tokens) {
        return new SettingParser(tokens).parse();
    }
}
