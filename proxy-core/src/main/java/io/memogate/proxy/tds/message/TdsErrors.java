package io.memogate.proxy.tds.message;

import io.memogate.proxy.admission.AdmissionRejectedException;

/**
 * Every error the TDS wing sends itself, in SQL Server's own words where it has some (the number a client's
 * retry logic reads), each naming what Memogate did and what to do. Fatal ones (severity 20) end the session.
 */
public final class TdsErrors {

    /** SQL Server's "A time out occurred while waiting to optimize the query": transient to client retry logic. */
    public static final int OPTIMIZE_TIMEOUT = 8628;
    /** SQL Server's "The incoming tabular data stream (TDS) protocol stream is incorrect". */
    public static final int PROTOCOL_ERROR = 4002;
    /** SQL Server's "Login failed": the login cannot go on, which a client does not retry blindly. */
    public static final int LOGIN_FAILED = 18456;
    private static final int FATAL = 20;

    private TdsErrors() {
    }

    /** A statement the gateways would not admit: 8628 as the server's own gateways answer, with the tier, wait and estimate. */
    public static TdsError admissionRejected(AdmissionRejectedException rejection) {
        return new TdsError(OPTIMIZE_TIMEOUT, 1, 17, "A time out occurred while waiting to optimize the query. "
                + "Rerun the query. Memogate admission control: " + rejection.getMessage() + " (" + rejection.detail()
                + "). " + rejection.hint());
    }

    /** A batch the operator's CANCEL withdrew from its admission queue before it reached the server. */
    public static TdsError cancelledWhileQueued() {
        return new TdsError(3617, 1, 16, "The batch was withdrawn from Memogate's admission queue by an operator "
                + "before it reached the server; it did not run");
    }

    public static TdsError malformed(String what) {
        return new TdsError(PROTOCOL_ERROR, 1, FATAL, "The incoming tabular data stream (TDS) protocol stream is "
                + "incorrect: " + what + ". Memogate closed the connection");
    }

    public static TdsError messageTooLarge(int limit) {
        return new TdsError(PROTOCOL_ERROR, 2, FATAL, "A TDS message longer than Memogate's limits.maxMessageBytes ("
                + limit + " bytes); raise it to send it. Memogate closed the connection");
    }

    public static TdsError serverUnreachable(String backend, String address, String why) {
        return new TdsError(17, 1, FATAL, "Memogate cannot reach the server of backend '" + backend + "' at " + address
                + ": " + why);
    }

    public static TdsError serverLost(String why) {
        return new TdsError(10054, 1, FATAL, "Memogate lost the connection to the server: " + why);
    }

    /** A client that started TLS in PRELOGIN packets although this listener said it does not encrypt. */
    public static TdsError clientEncryption() {
        return new TdsError(PROTOCOL_ERROR, 3, FATAL, "This Memogate TDS listener has no certificate (listeners[].tls) "
                + "and said so in its PRELOGIN answer, and the client started TLS anyway");
    }

    /** The server demands encryption, and the backend's tls.mode (disable) or the client's leg does not allow it. */
    public static TdsError serverEncryption(String backend, int answered, String why) {
        return new TdsError(PROTOCOL_ERROR, 4, FATAL, "The server of backend '" + backend + "' demands encryption ("
                + Prelogin.describe(answered) + "), and " + why);
    }

    /** The backend's tls.mode requires encryption, and the server answered that it does not support it. */
    public static TdsError serverWithoutEncryption(String backend, String mode) {
        return new TdsError(PROTOCOL_ERROR, 6, FATAL, "The server of backend '" + backend + "' does not support "
                + "encryption (ENCRYPT_NOT_SUP), and its tls.mode is " + mode + ": give the server a certificate, "
                + "or set tls.mode to prefer or disable");
    }

    /** The proxy's TLS handshake with the server failed. */
    public static TdsError serverTlsFailed(String backend, String why) {
        return new TdsError(PROTOCOL_ERROR, 7, FATAL, "Memogate's TLS handshake with the server of backend '" + backend
                + "' failed: " + why);
    }

    /** The server routes the login elsewhere, and the backend's tds.followRouting is false. */
    public static TdsError routingNotFollowed(String backend, Routing routing) {
        return routingRefused(20, backend, routing, "the backend's tds.followRouting is false: point the backend at "
                + "that server, or set followRouting to true for Memogate to follow the routing");
    }

    /** The server the proxy was routed to routes the login on again. */
    public static TdsError routingLoop(String backend, String routedFrom, Routing routing) {
        return new TdsError(LOGIN_FAILED, 21, FATAL, "Login failed: the server of backend '" + backend
                + "' routed this login to " + routedFrom + ", which routes it on to '" + routing.alternateServer()
                + "' (" + routing.address() + "); Memogate follows one routing, as SQL Server's clients do: point the "
                + "backend at the server that logs clients in");
    }

    /** The login cannot be repeated toward the routed server: integrated authentication, or more than its LOGIN7. */
    public static TdsError routingNotReplayable(String backend, Routing routing) {
        return routingRefused(22, backend, routing, "the login used integrated or federated authentication, which "
                + "Memogate cannot repeat toward another server: point the backend at that server");
    }

    private static TdsError routingRefused(int state, String backend, Routing routing, String why) {
        return new TdsError(LOGIN_FAILED, state, FATAL, "Login failed: the server of backend '" + backend
                + "' routes this login to '" + routing.alternateServer() + "' (" + routing.address() + "), and " + why);
    }

    /** The server the login was routed to cannot be reached, or went away before it answered the login. */
    public static TdsError routedServerUnreachable(String backend, Routing routing, String why) {
        return new TdsError(17, 2, FATAL, "Memogate cannot reach the server that backend '" + backend
                + "' routed the login to, '" + routing.alternateServer() + "' at " + routing.address() + ": " + why);
    }

    public static TdsError tooManyClients(int limit) {
        return new TdsError(17809, 1, FATAL, "Could not connect because the maximum number of user connections has "
                + "already been reached: Memogate's limits.maxClientConnections is " + limit);
    }

    public static TdsError killedByOperator(String by) {
        return new TdsError(596, 1, FATAL, "Cannot continue the execution because the session is in the kill state: "
                + "terminated by Memogate's operator (" + by + ")");
    }

    public static TdsError shuttingDown() {
        return new TdsError(6005, 1, FATAL, "SHUTDOWN is in progress: Memogate is stopping");
    }

    public static TdsError internal(String what) {
        return new TdsError(PROTOCOL_ERROR, 5, FATAL, "Memogate failed internally: " + what);
    }
}
