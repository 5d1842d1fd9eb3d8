package io.memogate.proxy.pg.session;

import java.io.FileNotFoundException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Why a backend could not be reached, as the client's FATAL says it: what happened, in the words a person
 * would write, and the hint that fits it. A server that refused TLS is not helped by checking that it
 * accepts connections, so each failure {@link BackendConnector} diagnoses itself carries its own hint;
 * the rest are the socket's errors, for which the hint to check the server's address is the right one.
 *
 * @param cause lower-case, as PostgreSQL words the detail of a primary message ("connection refused")
 * @param hint a sentence, naming the configuration fields as the file spells them ({@code backends[0].host})
 */
record ConnectFailure(String cause, String hint) {

    /**
     * Netty's native transports (epoll, io_uring) word a socket error as the system call that failed:
     * {@code finishConnect(..) failed with error(-111): Connection refused}. What follows the prefix is the
     * C library's text for the errno, which is what the JDK's own transport says ("Connection refused").
     */
    private static final Pattern NATIVE_CALL = Pattern.compile("^\\S*\\(\\.\\.\\) failed(?: with error\\(-?\\d+\\))?: ");

    /** Netty appends the remote address to some messages; the client's message names it already. */
    private static final Pattern REMOTE_ADDRESS = Pattern.compile(": \\S*/[0-9a-fA-F.:%\\[\\]]+:\\d+$");

    static ConnectFailure of(Throwable error, BackendTarget target) {
        if (error instanceof BackendConnector.BackendConnectException diagnosed) {
            return new ConnectFailure(diagnosed.getMessage(),
                    diagnosed.hint() != null ? diagnosed.hint() : listening(target));
        }
        Throwable root = root(error);
        if (root instanceof UnknownHostException) {
            return new ConnectFailure("could not translate host name \"" + target.host() + "\" to address",
                    "Check " + target.configPath() + ".host in the configuration: the proxy's host must resolve it.");
        }
        return new ConnectFailure(plainMessage(root), listening(target));
    }

    /**
     * The hint for a failure of the connection itself: refused, unreachable, timed out; for a Unix socket
     * also missing or forbidden, as libpq's "Is the server running locally and accepting connections on
     * that socket?" covers.
     */
    private static String listening(BackendTarget target) {
        if (target.unixSocket().isPresent()) {
            return "Check that the server is running locally and accepting connections on that socket: the directory"
                    + " " + target.configPath() + ".host must be one of its unix_socket_directories, "
                    + target.configPath() + ".port its port, and the directory open to the proxy's user.";
        }
        return "Check that the server is running and accepts TCP connections on that address.";
    }

    /**
     * The root cause's message as a person writes it: without Netty's system-call prefix or trailing
     * address, first letter in lower case ("connection refused", "no route to host").
     */
    static String plainMessage(Throwable error) {
        Throwable root = root(error);
        String message = root.getMessage();
        if ((message == null || message.isBlank()) && root instanceof FileNotFoundException) {
            // Netty's native transports throw it bare for ENOENT: a Unix socket that is not there.
            return "no such file or directory";
        }
        if (message == null || message.isBlank()) {
            return root.getClass().getSimpleName();
        }
        message = REMOTE_ADDRESS.matcher(NATIVE_CALL.matcher(message.strip()).replaceFirst("")).replaceFirst("");
        boolean word = message.length() > 1 && Character.isUpperCase(message.charAt(0))
                && Character.isLowerCase(message.charAt(1)); // "Connection", not "TLS"
        return word ? message.substring(0, 1).toLowerCase(Locale.ROOT) + message.substring(1) : message;
    }

    private static Throwable root(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }
}
