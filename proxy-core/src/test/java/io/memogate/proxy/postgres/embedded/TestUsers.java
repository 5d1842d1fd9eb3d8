package io.memogate.proxy.postgres.embedded;

/**
 * The login roles {@link EmbeddedPostgresExtension} creates on the shared server, one per way the
 * server can authenticate a client (see {@link EmbeddedPostgresOptions#DEFAULT_HBA}).
 */
public final class TestUsers {

    /** SCRAM-SHA-256; superuser, and owner of the demo database. */
    public static final String SCRAM_USER = DemoSchema.OWNER;
    public static final String SCRAM_PASSWORD = DemoSchema.OWNER_PASSWORD;

    /** Password stored as an MD5 hash, so the md5 rule runs the md5 challenge. */
    public static final String MD5_USER = "memogate_md5";
    public static final String MD5_PASSWORD = "md5secret";

    /** No password; pg_hba trusts this role from 127.0.0.1. */
    public static final String TRUST_USER = "memogate_trust";

    /** pg_hba asks this role for its password in cleartext (method "password"). */
    public static final String PLAIN_USER = "memogate_plain";
    public static final String PLAIN_PASSWORD = "plainsecret";

    private TestUsers() {
    }
}
