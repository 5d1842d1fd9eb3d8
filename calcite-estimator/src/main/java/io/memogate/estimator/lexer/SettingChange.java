package io.memogate.estimator.lexer;

import java.util.Objects;
import java.util.Optional;

/**
 * A change of a run-time setting a statement makes, for any setting, as a dialect's {@link StatementReader}
 * reads it (PostgreSQL's SET, RESET and set_config: {@code io.memogate.estimator.postgres.SettingParser});
 * callers pick the ones that change planning.
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
}
