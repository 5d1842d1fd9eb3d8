package io.memogate.proxy.server;

import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * A server socket that could not be bound, classified so that the operator is told what to change
 * rather than handed the transport's exception. Unchecked, as {@code ConfigException}: at startup it
 * ends the process with its message, and no caller in between can do anything else with it. Both transports report the failure with the C
 * library's strerror text (JDK NIO: BindException; Netty epoll: NativeIoException "bind(..) failed: ..."),
 * which is what {@link Reason#of} matches.
 */
public final class ListenException extends RuntimeException {

    /** Why the bind failed, and which key of the setting the operator changes. */
    public enum Reason {
        /** EADDRINUSE: another process (or another listener of this one) holds the port. */
        ADDRESS_IN_USE("address already in use", "port"),
        /** EADDRNOTAVAIL: the host is no address of this machine's interfaces. */
        ADDRESS_NOT_LOCAL("not an address of this machine", "host"),
        /** EACCES: a port below 1024 without root or CAP_NET_BIND_SERVICE. */
        PERMISSION_DENIED("permission denied", "port"),
        /** EACCES on a Unix socket: the proxy's user cannot create files in the socket's directory. */
        DIRECTORY_NOT_WRITABLE("permission denied", "host"),
        /** The host is a name that does not resolve. */
        UNKNOWN_HOST("the host name does not resolve", "host"),
        OTHER(null, null);

        private final String text;
        private final String key;

        Reason(String text, String key) {
            this.text = text;
            this.key = key;
        }

        static Reason of(Throwable error) {
            for (Throwable cause = error; cause != null; cause = cause.getCause()) {
                String message = String.valueOf(cause.getMessage()).toLowerCase(Locale.ROOT);
                if (message.contains("address already in use")) {
                    return ADDRESS_IN_USE;
                }
                if (message.contains("cannot assign requested address")) {
                    return ADDRESS_NOT_LOCAL;
                }
                if (message.contains("permission denied")) {
                    return PERMISSION_DENIED;
                }
            }
            return OTHER;
        }
    }

    /** What the socket serves: decides the message's words and who probably holds a taken port. */
    public enum Endpoint {
        CLIENTS("cannot listen on ", "another proxy or PgBouncer"),
        ADMIN_HTTP("cannot listen for admin HTTP on ", "another Memogate");

        private final String cannot;
        private final String likelyHolder;

        Endpoint(String cannot, String likelyHolder) {
            this.cannot = cannot;
            this.likelyHolder = likelyHolder;
        }
    }

    private final Endpoint endpoint;
    private final String setting;
    private final String address;
    private final Reason reason;
    private final String detail;

    /**
     * @param setting the configuration path of the address, e.g. {@code listeners[0]}, {@code admin.http}
     * @param address {@code host:port} as configured
     */
    ListenException(Endpoint endpoint, String setting, String address, Reason reason, Throwable cause) {
        super(endpoint.cannot + address + " (" + setting + "): " + detail(reason, cause), cause);
        this.endpoint = endpoint;
        this.setting = setting;
        this.address = address;
        this.reason = reason;
        this.detail = detail(reason, cause);
    }

    private static String detail(Reason reason, Throwable cause) {
        if (reason != Reason.OTHER) {
            return reason.text;
        }
        return cause == null || cause.getMessage() == null ? "unknown error" : cause.getMessage();
    }

    public Reason reason() {
        return reason;
    }

    /** The configuration path of the address that could not be bound, e.g. {@code listeners[0]}. */
    public String setting() {
        return setting;
    }

    /**
     * One line for the operator: what could not listen where, why, and what to do.
     *
     * @param howToChange turns the field to change ({@code listeners[0].port}) into the words of the
     *     command the operator ran: "change listeners[0].port in memogate.yaml", "choose another --port"
     */
    public String explain(UnaryOperator<String> howToChange) {
        String line = endpoint.cannot + address + ": " + detail;
        return switch (reason) {
            case ADDRESS_IN_USE -> line + " (is " + endpoint.likelyHolder + " running? stop it or "
                    + howToChange.apply(field()) + ")";
            case ADDRESS_NOT_LOCAL -> line + " (use an address of this machine, 127.0.0.1, or 0.0.0.0 for all: "
                    + howToChange.apply(field()) + ")";
            case PERMISSION_DENIED -> line + " (ports below 1024 need root or CAP_NET_BIND_SERVICE: "
                    + howToChange.apply(field()) + ")";
            case DIRECTORY_NOT_WRITABLE -> line + " (Memogate's user must be able to create files in the socket's"
                    + " directory: " + howToChange.apply(field()) + ")";
            case UNKNOWN_HOST -> line + " (" + howToChange.apply(field()) + ")";
            case OTHER -> line;
        };
    }

    private String field() {
        return setting + "." + reason.key;
    }
}
