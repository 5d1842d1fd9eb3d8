package io.memogate.proxy.postgres.embedded;

/**
 * How a role's password is stored on the server, which decides the authentication exchange a client
 * goes through under the {@code md5} pg_hba method: a SCRAM verifier makes the server run
 * SCRAM-SHA-256, an MD5 hash makes it run the md5 challenge
 * (<a href="https://www.postgresql.org/docs/18/auth-password.html">PostgreSQL 18, section 20.5</a>).
 */
public enum PasswordKind {
    /** {@code password_encryption = 'scram-sha-256'}, the server default. */
    SCRAM("scram-sha-256"),
    /** {@code password_encryption = 'md5'}: deprecated in PostgreSQL 18 (a WARNING), still accepted. */
    MD5("md5");

    private final String passwordEncryption;

    PasswordKind(String passwordEncryption) {
        this.passwordEncryption = passwordEncryption;
    }

    /** The value of the {@code password_encryption} setting that stores a password of this kind. */
    public String passwordEncryption() {
        return passwordEncryption;
    }
}
