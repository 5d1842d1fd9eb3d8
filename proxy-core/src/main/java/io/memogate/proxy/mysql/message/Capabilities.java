package io.memogate.proxy.mysql.message;

/**
 * The capability flags of the connection phase (protocol "Capabilities Flags") that the proxy reads or
 * clears, and MariaDB's extended ones (sent in the greeting's and the response's reserved bytes when the
 * low bit, CLIENT_MYSQL, is clear).
 *
 * <p>The proxy reads every statement, so it clears from the server's greeting what would hide them or change
 * the shape of answers it follows ({@link #CLEARED}, {@link #CLEARED_MARIADB}), and clears the same bits from
 * the client's answer: the server then never uses them. CLIENT_SSL is cleared too and then set again leg by
 * leg: offered to the client when the listener terminates TLS, and set toward the server when the proxy's own
 * leg to it is TLS (each leg is encrypted separately, so the proxy still reads every statement).
 */
public final class Capabilities {

    /** MySQL's own flag; MariaDB clears it to say the greeting carries extended capabilities. */
    public static final int CLIENT_MYSQL = 1;
    public static final int CLIENT_CONNECT_WITH_DB = 1 << 3;
    public static final int CLIENT_COMPRESS = 1 << 5;
    public static final int CLIENT_LOCAL_FILES = 1 << 7;
    public static final int CLIENT_PROTOCOL_41 = 1 << 9;
    public static final int CLIENT_SSL = 1 << 11;
    public static final int CLIENT_SECURE_CONNECTION = 1 << 15;
    public static final int CLIENT_PLUGIN_AUTH = 1 << 19;
    public static final int CLIENT_CONNECT_ATTRS = 1 << 20;
    public static final int CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA = 1 << 21;
    public static final int CLIENT_DEPRECATE_EOF = 1 << 24;
    public static final int CLIENT_OPTIONAL_RESULTSET_METADATA = 1 << 25;
    public static final int CLIENT_ZSTD_COMPRESSION_ALGORITHM = 1 << 26;
    public static final int CLIENT_QUERY_ATTRIBUTES = 1 << 27;
    /** MySQL: obsolete; MariaDB: progress reports, ERR-shaped packets in the middle of an answer. */
    public static final int CLIENT_PROGRESS = 1 << 29;

    /**
     * Cleared from both sides: compression (the proxy could not read the stream), TLS (set again per leg), query
     * attributes (they would change COM_QUERY's layout), optional result-set metadata and progress reports
     * (they change the shape of answers the proxy follows to find where each ends). CLIENT_LOCAL_FILES is left
     * as the server and the client agree it: the file a client sends in the middle of an answer is relayed.
     */
    public static final int CLEARED = CLIENT_COMPRESS | CLIENT_SSL | CLIENT_ZSTD_COMPRESSION_ALGORITHM
            | CLIENT_QUERY_ATTRIBUTES | CLIENT_OPTIONAL_RESULTSET_METADATA | CLIENT_PROGRESS;

    /** MariaDB's extended MARIADB_CLIENT_PROGRESS (bit 32). */
    public static final int MARIADB_PROGRESS = 1;
    /** MariaDB's COM_STMT_BULK_EXECUTE (bit 34): a batch in one command, admitted as one execute. */
    public static final int MARIADB_STMT_BULK_OPERATIONS = 1 << 2;
    /** MariaDB's metadata cache (bit 36): an execute's answer may then omit its column definitions. */
    public static final int MARIADB_CACHE_METADATA = 1 << 4;
    /** MariaDB's extended metadata (bit 35): every column definition carries a type-info field. */
    public static final int MARIADB_EXTENDED_METADATA = 1 << 3;
    public static final int CLEARED_MARIADB = MARIADB_PROGRESS | MARIADB_CACHE_METADATA;

    private Capabilities() {
    }
}
