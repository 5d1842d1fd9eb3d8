package io.memogate.proxy.postgres.embedded;

/**
 * Quoting for the few statements built from names and passwords (CREATE ROLE, CREATE DATABASE), which
 * take no bind parameters. Assumes standard_conforming_strings = on, the default since PostgreSQL 9.1.
 */
final class SqlText {

    private SqlText() {
    }

    /** "name" with embedded double quotes doubled (PostgreSQL 18, section 4.1.1). */
    static String identifier(String name) {
        if (name == null || name.isEmpty() || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a valid SQL identifier: " + name);
        }
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** 'text' with embedded single quotes doubled (PostgreSQL 18, section 4.1.2.1). */
    static String literal(String text) {
        if (text.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("SQL text cannot contain NUL characters");
        }
        return '\'' + text.replace("'", "''") + '\'';
    }
}
