package io.memogate.proxy.pg.message.backend;

import io.memogate.proxy.admin.ConsoleException;
import io.memogate.proxy.admission.AdmissionRejectedException;
import io.memogate.proxy.admission.Degraded;
import io.memogate.proxy.admission.WaitNotice;
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
    public static final String INVALID_AUTHORIZATION_SPECIFICATION = "28000";
    public static final String INSUFFICIENT_RESOURCES = "53000";
    public static final String TOO_MANY_CONNECTIONS = "53300";
    public static final String QUERY_CANCELED = "57014";
    public static final String SUCCESSFUL_COMPLETION = "00000";
    public static final String FEATURE_NOT_SUPPORTED = "0A000";
    public static final String ADMIN_SHUTDOWN = "57P01";
    public static final String INTERNAL_ERROR = "XX000";
    public static final String INSUFFICIENT_PRIVILEGE = "42501";
    public static final String SYNTAX_ERROR = "42601";
    public static final String UNDEFINED_OBJECT = "42704";
    public static final String AMBIGUOUS_ALIAS = "42P09";
    public static final String INVALID_PARAMETER_VALUE = "22023";
    public static final String CONFIG_FILE_ERROR = "F0000";
    public static final String OBJECT_NOT_IN_PREREQUISITE_STATE = "55000";
    public static final String DUPLICATE_PREPARED_STATEMENT = "42P05";
    public static final String UNDEFINED_PREPARED_STATEMENT = "26000";
    public static final String DUPLICATE_CURSOR = "42P03";
    public static final String UNDEFINED_CURSOR = "34000";

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

    /**
     * A message over limits.maxMessageBytes whose length PostgreSQL would take: a real statement, most
     * likely, so the hint is the setting, not the protocol (PostgreSQL itself also closes with 08P01).
     */
    public static ErrorResponse messageOverLimit(String what, int limit) {
        return fatal(PROTOCOL_VIOLATION, "invalid frontend message: " + what, null,
                "Memogate holds a Query, a Parse or a login message whole only up to limits.maxMessageBytes ("
                        + limit + " bytes); if clients send statements this long, raise limits.maxMessageBytes in the "
                        + "proxy's configuration (at most 1GiB; a reload applies it to new sessions). Only this "
                        + "connection was closed.");
    }

    public static ErrorResponse unknownDatabase(String database) {
        return fatal(INVALID_CATALOG_NAME, "database \"" + database + "\" does not exist",
                "Memogate routes no backend for database \"" + database + "\" and no backend is marked default.",
                "List the database under backends[].databases or set default: true on one backend.");
    }

    /**
     * No usable connection to the backend: the TCP connect failed, or the TLS negotiation did.
     *
     * @param hint what fits the cause: a server that refused TLS is not helped by checking that it listens
     */
    public static ErrorResponse backendUnreachable(String backend, String address, String cause, String hint) {
        return fatal(SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION,
                "Memogate could not connect to backend \"" + backend + "\" at " + address + ": " + cause, null, hint);
    }

    /**
     * The backend accepted the TCP connection but did not log in as a PostgreSQL server does: it answered
     * with bytes no PostgreSQL server sends (it is something else), or nothing within limits.connectTimeout.
     *
     * @param configPath where the file configures the backend, {@code backends[2]}
     */
    public static ErrorResponse backendLoginFailed(String backend, String address, String configPath, String what) {
        return fatal(SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION,
                "Memogate could not log in to backend \"" + backend + "\" at " + address + ": " + what, null,
                "Check " + configPath + ".host and port in the configuration: they must name a running PostgreSQL "
                        + "server.");
    }

    /** The server sent a message the proxy had to read and could not: the session cannot go on in step. */
    public static ErrorResponse backendMalformed(String backend, String address, String what) {
        return fatal(PROTOCOL_VIOLATION, "Memogate received a malformed message from backend \"" + backend + "\" at "
                + address + ": " + what, null,
                "The server broke PostgreSQL's protocol, or the backend is not a PostgreSQL server.");
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

    /** A StartupMessage without a user: PostgreSQL's words, before anything is routed or connected. */
    public static ErrorResponse noUserName() {
        return fatal(INVALID_AUTHORIZATION_SPECIFICATION, "no PostgreSQL user name specified in startup packet", null,
                null);
    }

    public static ErrorResponse unsupportedProtocol(int major, int minor) {
        return fatal(FEATURE_NOT_SUPPORTED,
                "unsupported frontend protocol " + major + "." + minor + ": server supports 3.0 to 3.2", null, null);
    }

    /** The admin console's KILL: PostgreSQL's words for pg_terminate_backend, and who asked. */
    public static ErrorResponse terminatedByOperator(String by) {
        return fatal(ADMIN_SHUTDOWN, "terminating connection due to administrator command",
                "KILL from Memogate's admin console by " + by + ".", null);
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

    /** Told once to a client whose statement has been waiting for admission for a while: where, and why. */
    public static ErrorResponse waitingNotice(WaitNotice notice) {
        return notice(notice.where(), null, notice.hint());
    }

    /** A NOTICE of the proxy's own, SQLSTATE 00000; {@code detail} and {@code hint} may be null. */
    private static ErrorResponse notice(String message, String detail, String hint) {
        Map<Character, String> fields = new LinkedHashMap<>();
        fields.put(ErrorResponse.SEVERITY, "NOTICE");
        fields.put(ErrorResponse.SEVERITY_NONLOCALIZED, "NOTICE");
        fields.put(ErrorResponse.SQLSTATE, SUCCESSFUL_COMPLETION);
        fields.put(ErrorResponse.MESSAGE, message);
        if (detail != null) {
            fields.put(ErrorResponse.DETAIL, detail);
        }
        if (hint != null) {
            fields.put(ErrorResponse.HINT, hint);
        }
        return new ErrorResponse(ErrorResponse.NOTICE_TYPE, fields);
    }

    /** Told to a client whose statement ran under tighter planner settings than its session's: which, and why. */
    public static ErrorResponse degradedNotice(Degraded degraded) {
        return notice(degraded.message(), degraded.detail(), "Memogate's admission.degrade chose them; raise the "
                + "compile-memory target (broker.staticTarget, broker.compileShare) or simplify the statement to plan "
                + "it in full.");
    }

    /**
     * An authenticated role that is not a console user. The server accepted the login; the proxy refuses
     * the console, as PostgreSQL refuses a database a role may not connect to (also 42501, after login).
     */
    public static ErrorResponse consoleDenied(String role) {
        return fatal(INSUFFICIENT_PRIVILEGE, "permission denied for the admin console: role \"" + role
                        + "\" is not listed in admin.users",
                "The database \"memogate\" is Memogate's admin console; the server authenticated the login, and only "
                        + "the roles in admin.users may use the console.",
                "Add the role to admin.users in the proxy's configuration file and reload it (SIGHUP, or RELOAD "
                        + "from an admin's console); no restart is needed.");
    }

    /** Nobody may use the console and no server could authenticate a login: refused before any exchange. */
    public static ErrorResponse consoleWithoutBackend() {
        return fatal(INSUFFICIENT_PRIVILEGE, "the admin console is not enabled: admin.users is empty",
                "Console logins are authenticated by the default backend's server, and no backend is the default.",
                "List the console's roles in admin.users and set default: true on one backend.");
    }

    /** PostgreSQL's answer to a message with bytes after its last field (pq_getmsgend); the session goes on. */
    public static ErrorResponse invalidMessageFormat() {
        return error(PROTOCOL_VIOLATION, "invalid message format", null, null);
    }

    public static ErrorResponse consoleHasNoFunctions() {
        return error(FEATURE_NOT_SUPPORTED, "the admin console has no functions to call",
                "The client sent a FunctionCall (the fast-path interface, as large objects use); the console answers "
                        + "only console commands.",
                "Send a console command as a query, e.g. SHOW HELP.");
    }

    /** Parse of a name already taken (PostgreSQL's words and code). */
    public static ErrorResponse duplicatePreparedStatement(String name) {
        return error(DUPLICATE_PREPARED_STATEMENT, "prepared statement \"" + name + "\" already exists", null, null);
    }

    /** Bind or Describe of a statement never parsed, or closed (PostgreSQL's words and code). */
    public static ErrorResponse unknownPreparedStatement(String name) {
        return error(UNDEFINED_PREPARED_STATEMENT, name.isEmpty() ? "unnamed prepared statement does not exist"
                : "prepared statement \"" + name + "\" does not exist", null, null);
    }

    /** Bind to a portal name already taken (PostgreSQL's words and code). */
    public static ErrorResponse duplicatePortal(String name) {
        return error(DUPLICATE_CURSOR, "cursor \"" + name + "\" already exists", null, null);
    }

    /** Describe or Execute of a portal never bound, closed, or ended by a Sync (PostgreSQL's words and code). */
    public static ErrorResponse unknownPortal(String name) {
        return error(UNDEFINED_CURSOR, "portal \"" + name + "\" does not exist", null, null);
    }

    /** A Bind with parameter values for a statement that takes none, as every console command is. */
    public static ErrorResponse bindParameterCount(int supplied, String statement) {
        return error(PROTOCOL_VIOLATION, "bind message supplies " + supplied + " parameters, but prepared statement \""
                + statement + "\" requires 0", "Console commands take no parameters.", null);
    }

    /** A Bind asking for a result format other than text (0) and binary (1). */
    public static ErrorResponse unsupportedFormatCode(int code) {
        return error(INVALID_PARAMETER_VALUE, "unsupported format code: " + code, null, null);
    }

    /** A Bind whose result format codes are neither none, one, nor one per column. */
    public static ErrorResponse resultFormatCount(int formats, int columns) {
        return error(PROTOCOL_VIOLATION, "bind message has " + formats + " result formats but query has " + columns
                + " columns", null, null);
    }

    /** A console command that failed; the console session goes on. */
    public static ErrorResponse consoleError(ConsoleException failure) {
        String sqlState = switch (failure.kind()) {
            case SYNTAX -> SYNTAX_ERROR;
            case UNKNOWN_SETTING, UNKNOWN_SESSION -> UNDEFINED_OBJECT;
            case AMBIGUOUS_SESSION -> AMBIGUOUS_ALIAS;
            case INVALID_VALUE -> INVALID_PARAMETER_VALUE;
            case CONFIG_FILE -> CONFIG_FILE_ERROR;
            case UNAVAILABLE -> OBJECT_NOT_IN_PREREQUISITE_STATE;
            case UNKNOWN_DATABASE -> INVALID_CATALOG_NAME;
        };
        return error(sqlState, failure.getMessage(), failure.detail(), failure.hint());
    }

    /** A console command that failed unexpectedly (a bug); unlike {@link #internal} the session goes on. */
    public static ErrorResponse consoleFailed(Throwable cause) {
        return error(INTERNAL_ERROR, "Memogate internal error in an admin console command: " + cause, null,
                "This is a bug in Memogate; the console session goes on. Please report it with the proxy's log.");
    }

    /** What the console tells its operator besides a result: what a PAUSE did, what a RELOAD changed. */
    public static ErrorResponse consoleNotice(String message) {
        Map<Character, String> fields = new LinkedHashMap<>();
        fields.put(ErrorResponse.SEVERITY, "NOTICE");
        fields.put(ErrorResponse.SEVERITY_NONLOCALIZED, "NOTICE");
        fields.put(ErrorResponse.SQLSTATE, SUCCESSFUL_COMPLETION);
        fields.put(ErrorResponse.MESSAGE, message);
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
