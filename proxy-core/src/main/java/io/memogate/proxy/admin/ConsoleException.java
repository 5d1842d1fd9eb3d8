package io.memogate.proxy.admin;

/**
 * A console command that cannot be done, protocol-neutral: each protocol turns the {@link Kind} into its
 * own error code (PostgreSQL: PgErrors.consoleError), with the message, detail and hint given here.
 * The session goes on, as after any failed statement.
 */
public final class ConsoleException extends RuntimeException {

    /** Why; each has a PostgreSQL SQLSTATE of the same meaning. */
    public enum Kind {
        /** Not a console command (42601 syntax_error). */
        SYNTAX,
        /** SET of a setting that does not exist or cannot be changed at run time (42704 undefined_object). */
        UNKNOWN_SETTING,
        /** SET to a value out of range or unparsable (22023 invalid_parameter_value). */
        INVALID_VALUE,
        /** RELOAD found a file that does not validate, or no file (F0000 config_file_error). */
        CONFIG_FILE,
        /** The command needs something this proxy runs without, e.g. gateways (55000 object_not_in_prerequisite_state). */
        UNAVAILABLE,
        /** EXPLAIN ADMISSION DATABASE of a database that is not there (3D000 invalid_catalog_name). */
        UNKNOWN_DATABASE,
        /** CANCEL or KILL of a server process no open session has (42704 undefined_object). */
        UNKNOWN_SESSION,
        /** CANCEL or KILL of a server process sessions on several backends have (42P09 ambiguous_alias). */
        AMBIGUOUS_SESSION
    }

    private final Kind kind;
    private final String detail;
    private final String hint;

    public ConsoleException(Kind kind, String message, String detail, String hint) {
        super(message, null, false, false);
        this.kind = kind;
        this.detail = detail;
        this.hint = hint;
    }

    public Kind kind() {
        return kind;
    }

    /** Why, in particulars; may be null. */
    public String detail() {
        return detail;
    }

    /** What to do about it; may be null. */
    public String hint() {
        return hint;
    }
}
