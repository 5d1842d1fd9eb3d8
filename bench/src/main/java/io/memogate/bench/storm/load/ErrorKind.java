package io.memogate.bench.storm.load;

/** Why an attempt failed, in the terms of the report (and of the paper's reliability figures). */
public enum ErrorKind {
    /** The attempt's own server process vanished without a word: what the client of a SIGKILLed backend sees. */
    SERVER_MEMORY_KILL("server memory kill"),
    /** The server ended the session, or refused a new one, because it was reinitializing after a crash. */
    RESTART("connection lost to a restart"),
    /** Memogate refused the statement: its gateway queue timed out or was full (SQLSTATE 53000). */
    GATEWAY_TIMEOUT("gateway timeout"),
    OTHER("other");

    private final String label;

    ErrorKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /**
     * By SQLSTATE (PostgreSQL 18, appendix A). A backend killed mid-query sends nothing: pgjdbc reports the
     * broken socket as 08006, and Memogate relays a lost server connection as FATAL 08006 too. The other
     * backends receive 57P02 ("terminating connection because of crash of another server process"), and
     * connections made while the server reinitializes get 57P03 ("the database system is in recovery
     * mode"); 57P01 is a shutdown. Memogate's gateway refusals are 53000.
     */
    public static ErrorKind of(String sqlState) {
        if (sqlState == null) {
            return OTHER;
        }
        return switch (sqlState) {
            case "08006", "08003", "08000" -> SERVER_MEMORY_KILL;
            case "57P01", "57P02", "57P03", "08001", "08004" -> RESTART;
            case "53000" -> GATEWAY_TIMEOUT;
            default -> OTHER;
        };
    }
}
