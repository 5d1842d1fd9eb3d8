package io.memogate.proxy.postgres.calibrate.tpc;

/**
 * How long the generated tables live: in the database, for a benchmark database of its own, or for the
 * session only, for a calibration on someone's server whose schema must not be touched.
 */
public enum TableLifetime {
    PERMANENT("CREATE TABLE "),
    SESSION("CREATE TEMPORARY TABLE ");

    private final String create;

    TableLifetime(String create) {
        this.create = create;
    }

    /** {@code CREATE [TEMPORARY] TABLE } */
    String create() {
        return create;
    }
}
