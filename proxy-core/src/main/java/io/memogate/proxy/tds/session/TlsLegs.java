package io.memogate.proxy.tds.session;

import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.tds.message.Prelogin;
import io.memogate.proxy.tds.message.TdsError;
import io.memogate.proxy.tds.message.TdsErrors;
import io.memogate.proxy.tds.tls.EncryptionMatrix;
import io.memogate.proxy.tds.tls.LegProtection;
import io.memogate.proxy.tds.tls.PreloginTlsFraming;
import io.memogate.proxy.tds.tls.TdsTls;
import io.memogate.proxy.tds.tls.TdsTlsDetector;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The encryption of a TDS session's two legs: negotiated in PRELOGIN on each leg on its own
 * ({@link EncryptionMatrix}), and TLS put on each connection and taken off again when only the login is encrypted.
 * The proxy terminates TLS on both legs, so that it reads every statement in between.
 *
 * <p>In order: the server's leg is made strict (TLS at once) when the backend says so ({@link #serverConnected});
 * the client's PRELOGIN is rewritten to what the proxy asks of the server ({@link #clientPrelogin}); the server's
 * answer decides the server's leg and is rewritten to what the client's leg gets ({@link #serverAnswered}); the
 * client's handshake runs inside PRELOGIN packets once the answer is on its way ({@link #startClient}), the
 * server's alongside it ({@link #startServer}), the client's LOGIN7 waiting for the latter; after the LOGIN7, a
 * leg encrypted for the login only drops its TLS ({@link #loginRelayed}). Routed to another server, the proxy sets
 * up its leg to that one as it did the first ({@link #serverReplaced}, {@link #routedServerAnswered}), the client's
 * leg staying as it is.
 */
final class TlsLegs {

    private static final Logger log = LoggerFactory.getLogger(TlsLegs.class);
    private static final String SERVER_TLS = "tls";
    private static final String PRELOGIN_FRAMING = "prelogin-tls";

    private final TdsSession session;
    private final TdsTls tls;
    private LegProtection client = LegProtection.NONE;
    private LegProtection server = LegProtection.NONE;
    private int clientAsked = Prelogin.ENCRYPT_NOT_SUP;
    private int asked = Prelogin.ENCRYPT_NOT_SUP;
    /** The server the proxy's TLS goes to: the name its certificate is checked against, and its port. */
    private String serverName;
    private int serverPort;

    TlsLegs(TdsSession session) {
        this.session = session;
        this.tls = session.services.tls();
    }

    /**
     * The server's connection is open, to the server whose certificate names {@code name} (verify-full) at
     * {@code port}: strict TLS starts on it at once when the backend is strict, and {@code ready} runs when it is up
     * (or the session ends saying why); else {@code ready} runs now.
     */
    void serverConnected(Channel opened, String name, int port, Runnable ready) {
        serverName = name;
        serverPort = port;
        if (!tls.backendStrict()) {
            ready.run();
            return;
        }
        server = LegProtection.STRICT;
        SslHandler handler = tls.forServer(opened.alloc(), serverName, serverPort);
        opened.pipeline().addFirst(SERVER_TLS, handler);
        handler.handshakeFuture().addListener((Future<Channel> done) -> serverHandshakeDone(done, ready,
                session::sendErrorAndClose));
        opened.read();
    }

    /** The client's PRELOGIN, rewritten in place to what the proxy asks of the server. */
    void clientPrelogin(ByteBuf message) {
        if (session.client.pipeline().get(TdsTlsDetector.TLS_HANDLER) != null) {
            client = LegProtection.STRICT;
        }
        clientAsked = Prelogin.encryption(message);
        boolean wants = client == LegProtection.STRICT || EncryptionMatrix.wants(clientAsked);
        asked = server == LegProtection.STRICT ? clientAsked : EncryptionMatrix.request(tls.backendMode(), wants);
        Prelogin.rewriteRequest(message, asked);
        if (wants && client != LegProtection.STRICT && tls.listener().isEmpty()) {
            // Answered ENCRYPT_NOT_SUP, such a client ends the connection itself, saying why in its own words.
            log.info("client {} asks for {}, and this listener has no certificate (listeners[].tls): it is told "
                    + "encryption is not supported", describeClient(), Prelogin.describe(clientAsked));
        }
    }

    /**
     * The server's PRELOGIN answer, rewritten in place to what the client's leg gets.
     *
     * @return the error the client's LOGIN7 is to be answered with, when the legs cannot be set up as negotiated
     */
    Optional<TdsError> serverAnswered(ByteBuf answer) {
        int answered = Prelogin.encryption(answer);
        String backend = session.services.backend().name();
        boolean demands = EncryptionMatrix.serverDemands(asked, answered);
        Optional<TdsError> refusal = serverLeg(answered, demands);
        int toClient = client == LegProtection.STRICT ? clientAsked
                : EncryptionMatrix.answer(tls.listener().isPresent(), clientAsked, demands);
        Prelogin.rewriteResponse(answer, toClient);
        if (client != LegProtection.STRICT) {
            client = EncryptionMatrix.agreed(clientAsked, toClient);
            if (client == LegProtection.NONE && demands && refusal.isEmpty()) {
                refusal = Optional.of(TdsErrors.serverEncryption(backend, answered, tls.listener().isEmpty()
                        ? "this Memogate listener has no certificate (listeners[].tls) to encrypt toward the client"
                        : "the client does not support encryption (it said ENCRYPT_NOT_SUP)"));
            }
        }
        refusal.ifPresent(error -> log.warn("backend '{}' answered PRELOGIN with {}: refusing the login of {}", backend,
                Prelogin.describe(answered), session));
        if (refusal.isPresent()) {
            server = LegProtection.NONE;
        }
        log.debug("{}: client leg {}, server leg {}", session, client, server);
        return refusal;
    }

    /** The server's leg as its PRELOGIN answer settles it; the error to refuse the login with when it cannot be. */
    private Optional<TdsError> serverLeg(int answered, boolean demands) {
        if (server == LegProtection.STRICT) {
            return Optional.empty();
        }
        String backend = session.services.backend().name();
        server = EncryptionMatrix.agreed(asked, answered);
        if (asked == Prelogin.ENCRYPT_NOT_SUP && demands) {
            return Optional.of(TdsErrors.serverEncryption(backend, answered, "its tls.mode is disable: set it "
                    + "to prefer (or require) for Memogate to encrypt toward it"));
        }
        if (asked == Prelogin.ENCRYPT_ON && server == LegProtection.NONE && tls.backendMode() != TlsMode.PREFER) {
            return Optional.of(TdsErrors.serverWithoutEncryption(backend, tls.backendMode().configName()));
        }
        return Optional.empty();
    }

    /** The server's connection is replaced by one to the server a Routing ENVCHANGE named: its leg starts anew. */
    void serverReplaced() {
        server = LegProtection.NONE;
    }

    /**
     * The routed server's PRELOGIN answer (the proxy's own PRELOGIN, as it went to the first server, asked it the
     * same): it settles the server's leg; the client's is left as the first answer settled it.
     *
     * @return the error to answer the client's login with, when the routed server's leg cannot be set up, or when the
     *     routed server demands encryption that the client's leg does not have
     */
    Optional<TdsError> routedServerAnswered(ByteBuf answer) {
        int answered = Prelogin.encryption(answer);
        boolean demands = EncryptionMatrix.serverDemands(asked, answered);
        Optional<TdsError> refusal = serverLeg(answered, demands);
        if (refusal.isEmpty() && demands && !clientEncrypted()) {
            refusal = Optional.of(TdsErrors.serverEncryption(session.services.backend().name(), answered,
                    "it is a server the first one routed the login to, after the client's leg was set up without "
                    + "encryption: connect with encrypt=true"));
        }
        if (refusal.isPresent()) {
            server = LegProtection.NONE;
        }
        log.debug("{}: routed server leg {}", session, server);
        return refusal;
    }

    /** The PRELOGIN answer is written to the client: its handshake, in PRELOGIN packets, comes next. */
    void startClient() {
        if (!client.handshakesInPrelogin()) {
            return;
        }
        Channel channel = session.client;
        SslHandler handler = tls.forClient(channel.alloc());
        channel.pipeline().addFirst(PRELOGIN_FRAMING, new PreloginTlsFraming(handler))
                .addAfter(PRELOGIN_FRAMING, TdsTlsDetector.TLS_HANDLER, handler);
    }

    /**
     * Starts the proxy's handshake with the server inside PRELOGIN packets, when its leg is encrypted: {@code ready}
     * runs when it is over, {@code failed} with the error to answer the client's LOGIN7 with when it fails (the
     * client may still be in its own handshake, which an error sent now could not pass).
     *
     * @return false when the server's leg has no handshake to make
     */
    boolean startServer(Runnable ready, Consumer<TdsError> failed) {
        if (!server.handshakesInPrelogin()) {
            return false;
        }
        Channel channel = session.serverChannel();
        SslHandler handler = tls.forServer(channel.alloc(), serverName, serverPort);
        // The framing first: a client's handler sends its ClientHello as soon as it is added.
        channel.pipeline().addFirst(PRELOGIN_FRAMING, new PreloginTlsFraming(handler))
                .addAfter(PRELOGIN_FRAMING, SERVER_TLS, handler);
        handler.handshakeFuture().addListener((Future<Channel> done) -> serverHandshakeDone(done, ready, failed));
        channel.read();
        return true;
    }

    private void serverHandshakeDone(Future<Channel> done, Runnable ready, Consumer<TdsError> failed) {
        if (session.ended()) {
            return;
        }
        if (!done.isSuccess()) {
            log.warn("TLS with backend '{}' failed for {}: {}", session.services.backend().name(), session,
                    done.cause().toString());
            server = LegProtection.NONE;
            failed.accept(TdsErrors.serverTlsFailed(session.services.backend().name(), rootMessage(done.cause())));
            return;
        }
        ready.run();
    }

    /**
     * The LOGIN7 went to the server: a leg encrypted for the login only goes on in plaintext, without a close_notify,
     * as both ends of such a connection do ([MS-TDS] 2.2.6.5, ENCRYPT_OFF). The server's TLS is taken off once the
     * LOGIN7 is flushed through it; the client's once the handler that decrypted the LOGIN7 is done with it.
     */
    void loginRelayed() {
        if (server == LegProtection.LOGIN_ONLY) {
            Channel channel = session.serverChannel();
            channel.flush();
            channel.pipeline().remove(SERVER_TLS);
            server = LegProtection.NONE;
        }
        if (client == LegProtection.LOGIN_ONLY) {
            Channel channel = session.client;
            channel.eventLoop().execute(() -> {
                if (channel.pipeline().get(TdsTlsDetector.TLS_HANDLER) != null) {
                    channel.pipeline().remove(TdsTlsDetector.TLS_HANDLER);
                }
            });
            client = LegProtection.NONE;
        }
    }

    /** Whether what the client sends after its login is encrypted (SHOW CLIENTS' TLS column). */
    boolean clientEncrypted() {
        return client == LegProtection.FULL || client == LegProtection.STRICT;
    }

    boolean serverEncrypted() {
        return server == LegProtection.FULL || server == LegProtection.STRICT;
    }

    private String describeClient() {
        return SessionInfo.describe(session.client.remoteAddress());
    }

    private static String rootMessage(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
