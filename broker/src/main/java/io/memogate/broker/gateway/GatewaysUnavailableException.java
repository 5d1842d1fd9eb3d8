package io.memogate.broker.gateway;

/**
 * The gateways could not decide a statement, which is therefore not admitted: gateways kept outside the
 * process (a fleet's, in Redis) did not answer or lost it. Unlike {@link GatewayRejectedException} it says
 * nothing of the server's load; the client may retry at once.
 */
public class GatewaysUnavailableException extends RuntimeException {

    public GatewaysUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
