package io.memogate.proxy.tds.tls;

import io.memogate.proxy.config.TlsMode;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.util.Optional;

/**
 * TLS on the two legs of a TDS listener's sessions.
 *
 * @param listener the listener's certificate, for a TDS 7.x client's handshake in PRELOGIN packets; empty when
 *     the listener has no {@code tls} section (the proxy then says ENCRYPT_NOT_SUP to every client)
 * @param strictListener the same certificate offering ALPN {@code tds/8.0}, for a client that starts TLS at once
 * @param backend TLS toward the server, as the backend's {@code tls.mode} says; empty for disable
 * @param backendMode the backend's {@code tls.mode}, which decides what the proxy asks of the server
 * @param backendStrict TDS 8.0 toward the server: TLS first on TCP, then PRELOGIN inside it
 * @param serverName the name the backend's server's certificate is checked against (verify-full), and sent by SNI
 */
public record TdsTls(Optional<SslContext> listener, Optional<SslContext> strictListener, Optional<SslContext> backend,
                     TlsMode backendMode, boolean backendStrict, String serverName) {

    /**
     * SQL Server speaks TLS 1.2 at most inside PRELOGIN packets (TLS 1.3 comes with TDS 8.0 only), and a TLS 1.3
     * server sends records after its handshake ends, which a TDS 7.x peer would take for the TLS of its login.
     */
    private static final String[] IN_PRELOGIN_PROTOCOLS = {"TLSv1.2"};

    /** The handler that terminates a TDS 7.x client's TLS, its handshake inside PRELOGIN packets. */
    public SslHandler forClient(ByteBufAllocator alloc) {
        SslHandler handler = listener.orElseThrow().newHandler(alloc);
        handler.engine().setEnabledProtocols(IN_PRELOGIN_PROTOCOLS);
        return handler;
    }

    /**
     * The handler of the proxy's TLS to the server at {@code port} whose certificate must name {@code name} (the
     * backend's {@link #serverName}, or the server a Routing ENVCHANGE named): inside PRELOGIN packets unless strict.
     */
    public SslHandler forServer(ByteBufAllocator alloc, String name, int port) {
        SslHandler handler = backend.orElseThrow().newHandler(alloc, name, port);
        if (!backendStrict) {
            handler.engine().setEnabledProtocols(IN_PRELOGIN_PROTOCOLS);
        }
        return handler;
    }
}
