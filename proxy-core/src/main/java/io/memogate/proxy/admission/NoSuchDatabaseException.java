package io.memogate.proxy.admission;

import java.util.Objects;

/**
 * A database whose catalog was asked for does not exist: the server answered SQLSTATE 3D000, or no
 * backend serves it. Not a failed read to try again: nothing is kept of it, and the asker (the console's
 * EXPLAIN ADMISSION DATABASE) tells the user which name was wrong.
 */
public final class NoSuchDatabaseException extends RuntimeException {

    private final String database;

    /** @param why what said so, a sentence without its full stop ("Its catalog was read on the server ...") */
    public NoSuchDatabaseException(String database, String why) {
        super(why, null, false, false);
        this.database = Objects.requireNonNull(database, "database");
    }

    public String database() {
        return database;
    }
}
