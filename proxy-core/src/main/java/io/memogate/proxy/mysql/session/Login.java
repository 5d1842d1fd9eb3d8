package io.memogate.proxy.mysql.session;

import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.memogate.proxy.mysql.message.ErrPacket;
import io.memogate.proxy.mysql.message.Greeting;
import io.memogate.proxy.mysql.message.HandshakeResponse;
import io.memogate.proxy.mysql.message.MySqlErrors;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import java.util.Locale;
import java.util.Optional;

/**
 * A session's login, from the client's first packet to the server's OK: the HandshakeResponse read and relayed
 * with its capabilities narrowed, the authentication packets after it relayed as they are, and TLS on the two
 * legs, each on its own: the client's, terminated by the proxy with the listener's certificate when the client
 * sent an SSLRequest ({@link io.memogate.proxy.mysql.codec.SslRequestSplitter} put the handler in); the server's,
 * started by the proxy's
 * own SSLRequest when the backend's tls.mode asks for it (disable: never; prefer: when the greeting offers it;
 * require and verify-full: always, refusing the client when the server does not offer it).
 *
 * <p>The server's TLS starts at the client's first packet: the server takes the session's capabilities from
 * the SSLRequest, so the proxy's carries the client's. Until its handshake is over the client's response waits.
 * A leg with an SSLRequest counts one packet more during the login: {@link #shift()} is what to add to the
 * sequence ids going to the client (and take from those going to the server) until the login ends.
 *
 * <p>Runs on the session's event loop, as the session does.
 */
final class Login {

    /** The server's leg: plain, TLS still to start (at the client's first packet), starting, or encrypted. */
    private enum ServerLeg { PLAIN, WANTED, HANDSHAKING, ENCRYPTED }

    private final MySqlSession session;
    private final BackendConfig backend;
    private final Optional<SslContext> serverContext;
    private boolean clientEncrypted;
    private ServerLeg serverLeg = ServerLeg.PLAIN;
    /** The client's HandshakeResponse is relayed: what follows is authentication data. */
    private boolean responseSent;
    /** The client's HandshakeResponse, read, while the server's TLS handshake runs; else null. */
    private ByteBuf pendingFrame;
    private HandshakeResponse pendingResponse;

    Login(MySqlSession session) {
        this.session = session;
        this.backend = session.services.backend();
        this.serverContext = session.services.serverTls();
    }

    /** A client packet while authenticating: an SSLRequest maybe, its HandshakeResponse, then authentication data. */
    void clientPacket(ByteBuf frame) {
        if (responseSent) {
            MySqlPackets.shiftSequenceIds(frame, -shift());
            session.toServer(frame);
            return;
        }
        if (HandshakeResponse.isSslRequest(frame)) {
            sslRequest(frame);
            return;
        }
        HandshakeResponse response;
        try {
            response = HandshakeResponse.rewrite(frame, serverLeg != ServerLeg.PLAIN);
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
        frame = MySqlConsole.login(session, frame, response);
        if (serverLeg == ServerLeg.WANTED) {
            pendingFrame = frame;
            pendingResponse = response;
            startServer(frame);
            return;
        }
        relayResponse(frame, response);
    }

    /** A server packet while authenticating, its sequence id as the client counts; owned by the caller. */
    void serverPacket(ByteBuf packet) {
        MySqlPackets.shiftSequenceIds(packet, shift());
    }

    /** The listener's TLS handler is in place already ({@link io.memogate.proxy.mysql.codec.SslRequestSplitter}). */
    private void sslRequest(ByteBuf frame) {
        try {
            if (session.services.clientTls().isEmpty() || clientEncrypted) {
                session.sendErrorAndClose(MySqlErrors.tlsNotOffered(), MySqlPackets.sequenceId(frame) + 1);
                return;
            }
            clientEncrypted = true;
            if (serverLeg == ServerLeg.WANTED) {
                startServer(frame);
            }
        } finally {
            frame.release();
        }
    }

    private void relayResponse(ByteBuf frame, HandshakeResponse response) {
        session.loggingIn(response);
        responseSent = true;
        MySqlPackets.shiftSequenceIds(frame, -shift());
        session.toServer(frame);
    }

    /** Releases what waits; the session is closing. */
    void closed() {
        if (pendingFrame != null) {
            pendingFrame.release();
            pendingFrame = null;
        }
    }

    /** Decides the server's leg from its greeting: an error for the client when it cannot be reached as configured. */
    Optional<ErrPacket> greeting(Greeting greeting) {
        TlsMode mode = backend.tls().mode();
        boolean wanted = switch (mode) {
            case DISABLE -> false;
            case PREFER -> greeting.offersTls();
            case REQUIRE, VERIFY_FULL -> true;
        };
        if (wanted && !greeting.offersTls()) {
            return Optional.of(MySqlErrors.backendWithoutTls(backend.name(),
                    mode.name().toLowerCase(Locale.ROOT).replace('_', '-')));
        }
        serverLeg = wanted && serverContext.isPresent() ? ServerLeg.WANTED : ServerLeg.PLAIN;
        return Optional.empty();
    }

    boolean clientEncrypted() {
        return clientEncrypted;
    }

    /** The client's packets wait while the server's handshake runs. */
    boolean serverHandshaking() {
        return serverLeg == ServerLeg.HANDSHAKING;
    }

    boolean serverEncrypted() {
        return serverLeg == ServerLeg.ENCRYPTED;
    }

    /** What to add to the sequence id of a login packet going to the client. */
    private int shift() {
        return (clientEncrypted ? 1 : 0) - (serverLeg == ServerLeg.ENCRYPTED ? 1 : 0);
    }

    /**
     * Sends the proxy's SSLRequest, made from {@code clientFirst}, and starts TLS on the server's leg; the
     * client's response, if read, is relayed once the handshake is over, and what the client sent meanwhile.
     */
    private void startServer(ByteBuf clientFirst) {
        Channel server = session.serverChannel();
        server.writeAndFlush(HandshakeResponse.sslRequest(clientFirst, server.alloc()));
        SslHandler tls = serverContext.orElseThrow().newHandler(server.alloc(),
                backend.tls().serverName().orElse(backend.host()), backend.port());
        server.pipeline().addFirst("tls", tls);
        serverLeg = ServerLeg.HANDSHAKING;
        tls.handshakeFuture().addListener((Future<Channel> handshake) -> serverHandshakeDone(handshake));
        server.read();
    }

    private void serverHandshakeDone(Future<Channel> handshake) {
        if (session.ended()) {
            return;
        }
        if (!handshake.isSuccess()) {
            session.sendErrorAndClose(failed(rootMessage(handshake.cause())));
            return;
        }
        serverLeg = ServerLeg.ENCRYPTED;
        if (pendingFrame != null) {
            ByteBuf frame = pendingFrame;
            pendingFrame = null;
            relayResponse(frame, pendingResponse);
            pendingResponse = null;
        }
        session.replayHeld();
    }

    /** The error for a server that went away or failed during its handshake. */
    ErrPacket failed(String why) {
        return MySqlErrors.backendTlsFailed(backend.name(), why);
    }

    private static String rootMessage(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
