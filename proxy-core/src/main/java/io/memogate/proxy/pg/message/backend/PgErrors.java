package io.memogate.proxy.pg.message.backend;

import io.memogate.proxy.admission.AdmissionRejectedException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every error the proxy itself sends to a PostgreSQL client is built here, so that its SQLSTATE,
 * wording and hints stay consistent with PostgreSQL's own (Appendix A, "PostgreSQL Error Codes").
 * Messages say what happened and which limit; hints say what to do.
 */
public final class PgErrors {

    public static final String PROTOCOL_VIOLATION = "08P01";
    public static final String CONNECTION_FAILURE = "08006";
    public static final String SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION = "08001";
    public static final String INVALID_CATALOG_NAME = "3D000";
    public static final String INSUFFICIENT_RESOURCES = "53000";
    public static final String TOO_MANY_CONNECTIONS = "53300";
    public static final String QUERY_CANCELED = "57014";
    public static final String SUCCESSFUL_COMPLETION = "00000";
    public static final String FEATURE_NOT_SUPPORTED = "0A000";
    public static final String ADMIN_SHUTDOWN = "57P01";
    public static final String INTERNAL_ERROR = "XX000";

    private PgErrors() {}

    public static ErrorResponse fatal(String sqlState, String message, String detail, String hint) {
        return build("FATAL", sqlState, message, detail, hint);
    }

    public static ErrorResponse error(String sqlState, String message, String detail, String hint) {
        return build("ERROR", sqlState, message, detail, hint);
    }

    /** A frame that breaks the protocol: PostgreSQL closes the connection with 08P01, so do we. */
    public static ErrorResponse protocolViolation(String what) {
        return fatal(PROTOCOL_VIOLATION, "invalid frontend message: " + what, null,
                "The client sent bytes that are not a valid PostgreSQL protocol 3 message; only this connection was closed.");
    }

    public static ErrorResponse unknownDatabase(String database) {
        return fatal(INVALID_CATALOG_NAME, "database \"" + database + "\" does not exist",
                "Memogate routes no backend for database \"" + database + "\" and no backend is marked default.",
                "List the database under backends[].databases or set default: true on one backend.");
    }

    public static ErrorResponse backendUnreachable(String backend, String address, String cause) {
        return fatal(SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION,
                "Memogate could not connect to backend \"" + backend + "\" at " + address + ": " + cause, null,
                "Check that the server is running and accepts TCP connections on that address.");
    }

    public static ErrorResponse backendClosed() {
        return fatal(CONNECTION_FAILURE, "server closed the connection unexpectedly",
                "The backend connection ended while this session was using it; any statement in progress may or may not have completed.",
                "Reconnect; the server may have restarted or ended this session.");
    }

    public static ErrorResponse tooManyClients(int limit) {
        return fatal(TOO_MANY_CONNECTIONS, "sorry, too many clients already",
                "Memogate accepts at most " + limit + " client connections (limits.maxClientConnections).", null);
    }

    public static ErrorResponse unsupportedProtocol(int major, int minor) {
        return fatal(FEATURE_NOT_SUPPORTED,
                "unsupported frontend protocol " + major + "." + minor + ": server supports 3.0 to 3.2", null, null);
    }

    public static ErrorResponse shuttingDown() {
        return fatal(ADMIN_SHUTDOWN, "terminating connection because Memogate is shutting down", null,
                "Reconnect when the proxy is back.");
    }

    /** A statement the gateways refused (queue full, or waited too long); the session stays usable. */
    public static ErrorResponse admissionRejected(AdmissionRejectedException rejection) {
        return error(INSUFFICIENT_RESOURCES, rejection.getMessage(), rejection.detail(), rejection.hint());
    }

    /** A cancel that found the statement still queued: PostgreSQL's own wording, as if the server had cancelled it. */
    public static ErrorResponse queryCanceled() {
        return error(QUERY_CANCELED, "canceling statement due to user request",
                "Memogate removed the statement from the admission queue before it reached the server.", null);
    }

    /** Told once to a client whose statement has been waiting for admission for a while. */
    public static ErrorResponse waitingNotice(String where) {
        Map<Character, String> fields = new LinkedHashMap<>();
        fields.put(ErrorResponse.SEVERITY, "NOTICE");
        fields.put(ErrorResponse.SEVERITY_NONLOCALIZED, "NOTICE");
        fields.put(ErrorResponse.SQLSTATE, SUCCESSFUL_COMPLETION);
        fields.put(ErrorResponse.MESSAGE, where);
        fields.put(ErrorResponse.HINT, "The server is busy compiling large statements; this one runs when its turn comes.");
        return new ErrorResponse(ErrorResponse.NOTICE_TYPE, fields);
    }

    public static ErrorResponse internal(String message) {
        return fatal(INTERNAL_ERROR, "Memogate internal error: " + message, null,
                "This is a bug in Memogate; the session was closed. Please report it with the proxy's log.");
    }

    private static ErrorResponse build(String severity, String sqlState, String message, String detail, String hint) {
        Map<Character, String> fields = new LinkedHashMap<>();
        fields.put(ErrorResponse.SEVERITY, severity);
        fields.put(ErrorResponse.SEVERITY_NONLOCALIZED, severity);
        fields.put(ErrorResponse.SQLSTATE, sqlState);
        fields.put(ErrorResponse.MESSAGE, message);
        if (detail != null) {
            fields.put(ErrorResponse.DETAIL, detail);
        }
        if (hint != null) {
            fields.put(ErrorResponse.HINT, hint);
        }
        return new ErrorResponse(ErrorResponse.TYPE, fields);
    }
}
