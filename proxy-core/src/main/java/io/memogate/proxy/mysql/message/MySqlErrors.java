package io.memogate.proxy.mysql.message;

import io.memogate.proxy.admin.ConsoleException;
import io.memogate.proxy.admission.AdmissionRejectedException;

/**
 * Every error the MySQL wing sends itself, in the server's own codes where one fits, so that drivers raise
 * what they raise for the server's. A statement refused or withdrawn by admission gets 1317
 * ER_QUERY_INTERRUPTED, SQLSTATE 70100, which mariadb-java-client raises as SQLTimeoutException and
 * Connector/J as a query-interrupted exception (not 1226 ER_USER_LIMIT_REACHED: its SQLSTATE 42000 makes
 * drivers raise a syntax error). The connection stays usable after them.
 */
public final class MySqlErrors {

    public static final int ER_QUERY_INTERRUPTED = 1317;
    public static final String QUERY_INTERRUPTED_STATE = "70100";

    private MySqlErrors() {
    }

    /** A statement the gateways would not admit: the tier, the wait and the estimate, and what to do. */
    public static ErrPacket admissionRejected(AdmissionRejectedException rejection) {
        return new ErrPacket(ER_QUERY_INTERRUPTED, QUERY_INTERRUPTED_STATE, "Query execution was interrupted by "
                + "Memogate admission control: " + rejection.getMessage() + " (" + rejection.detail() + "). "
                + rejection.hint());
    }

    /** A statement withdrawn from its admission queue by KILL QUERY before it reached the server. */
    public static ErrPacket cancelledWhileQueued() {
        return new ErrPacket(ER_QUERY_INTERRUPTED, QUERY_INTERRUPTED_STATE,
                "Query execution was interrupted: cancelled while queued for admission, before it reached the server");
    }

    /** ER_NET_PACKET_TOO_LARGE, as the server words it, naming the proxy's limit. */
    public static ErrPacket packetTooLarge(int limit) {
        return new ErrPacket(1153, "08S01", "Got a packet bigger than Memogate's limits.maxMessageBytes ("
                + limit + " bytes); raise it, and the server's max_allowed_packet, to send it");
    }

    /** ER_NET_ERROR_ON_READ's SQLSTATE: the client broke the protocol, and the connection ends. */
    public static ErrPacket malformed(String what) {
        return new ErrPacket(1158, "08S01", "Memogate closed the connection: malformed packet: " + what);
    }

    /** An SSLRequest on a listener that did not offer TLS, or a second one. */
    public static ErrPacket tlsNotOffered() {
        return new ErrPacket(1045, "08004", "Memogate offers no TLS on this listener (its listeners[].tls is not "
                + "set): connect without TLS (sslMode=disable, --skip-ssl), or configure a certificate for it");
    }

    /** CR_SSL_CONNECTION_ERROR, sent instead of the greeting: the backend must be reached with TLS and does not offer it. */
    public static ErrPacket backendWithoutTls(String backend, String mode) {
        return new ErrPacket(2026, "HY000", "SSL connection error: Memogate must reach backend '" + backend
                + "' with TLS (its tls.mode is " + mode + "), and the server does not offer TLS");
    }

    /** CR_SSL_CONNECTION_ERROR: the TLS handshake between the proxy and the server failed. */
    public static ErrPacket backendTlsFailed(String backend, String why) {
        return new ErrPacket(2026, "HY000", "SSL connection error: the TLS handshake between Memogate and backend '"
                + backend + "' failed: " + why + "; check the backend's tls (trustedCertificates, serverName)");
    }

    /** ER_CON_COUNT_ERROR, the server's own words for the same limit. */
    public static ErrPacket tooManyClients(int limit) {
        return new ErrPacket(1040, "08004", "Too many connections: Memogate's limits.maxClientConnections ("
                + limit + ") is reached");
    }

    /** The server could not be reached (sent instead of a greeting). */
    public static ErrPacket serverUnreachable(String backend, String address, String why) {
        return new ErrPacket(2003, "HY000", "Memogate cannot connect to backend '" + backend + "' at " + address
                + ": " + why);
    }

    /** The server closed the connection or sent something the proxy cannot read. */
    public static ErrPacket serverLost(String why) {
        return new ErrPacket(2013, "HY000", "Lost connection to the server through Memogate: " + why);
    }

    /** ER_SERVER_SHUTDOWN. */
    public static ErrPacket shuttingDown() {
        return new ErrPacket(1053, "08S01", "Memogate is shutting down");
    }

    /** ER_CONNECTION_KILLED, as MariaDB says it. */
    public static ErrPacket killedByOperator(String by) {
        return new ErrPacket(1927, "70100", "Connection was killed by a Memogate operator (" + by + ")");
    }

    /** ER_DBACCESS_DENIED_ERROR, as the server words it: the server accepted the login, admin.users does not list it. */
    public static ErrPacket consoleDenied(String user) {
        return new ErrPacket(1044, "42000", "Access denied for user '" + user + "' to database 'memogate': it is "
                + "Memogate's admin console, and only the users in admin.users may use it (add the user there and "
                + "reload the configuration; no restart is needed)");
    }

    /**
     * A console command that cannot be done: ER_PARSE_ERROR (42000) for what is no console command, so drivers
     * raise a syntax error, else ER_UNKNOWN_ERROR (HY000); the message, detail and hint in one text.
     */
    public static ErrPacket consoleError(ConsoleException failure) {
        StringBuilder text = new StringBuilder(failure.getMessage());
        if (failure.detail() != null) {
            text.append(". ").append(failure.detail());
        }
        if (failure.hint() != null) {
            text.append(" ").append(failure.hint());
        }
        return failure.kind() == ConsoleException.Kind.SYNTAX ? new ErrPacket(1064, "42000", text.toString())
                : new ErrPacket(1105, "HY000", text.toString());
    }

    public static ErrPacket consoleFailed(Throwable cause) {
        return new ErrPacket(1105, "HY000", "Memogate internal error in an admin console command: " + cause
                + "; the console session goes on");
    }

    /** ER_NOT_SUPPORTED_YET: a command the console does not serve (prepared statements, another schema, ...). */
    public static ErrPacket consoleUnsupported(String what) {
        return new ErrPacket(1235, "42000", "Memogate's admin console does not support " + what + ": send console "
                + "commands as plain text queries (SHOW HELP lists them)");
    }

    public static ErrPacket internal(String what) {
        return new ErrPacket(1105, "HY000", "Memogate internal error: " + what);
    }
}
