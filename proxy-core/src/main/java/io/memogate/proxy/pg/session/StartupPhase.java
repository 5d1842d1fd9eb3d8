package io.memogate.proxy.pg.session;

import io.memogate.proxy.admin.ConsoleService;
import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.pg.auth.LoginObserver;
import io.memogate.proxy.pg.codec.ClientMessageDecoder;
import io.memogate.proxy.pg.codec.PgFrameDecoders.StartupFrameDecoder;
import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.UnansweredPacketException;
import io.memogate.proxy.pg.message.backend.Authentication;
import io.memogate.proxy.pg.message.backend.BackendKeyData;
import io.memogate.proxy.pg.message.backend.BackendType;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.backend.PgErrors;
import io.memogate.proxy.pg.message.backend.ReadyForQuery;
import io.memogate.proxy.pg.message.frontend.CancelRequest;
import io.memogate.proxy.pg.message.frontend.GssEncRequest;
import io.memogate.proxy.pg.message.frontend.SslRequest;
import io.memogate.proxy.pg.message.frontend.StartupMessage;
import io.memogate.proxy.pg.message.frontend.StartupPacket;
import io.memogate.proxy.tls.DirectTlsDetector;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start of a session (https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-START-UP):
 * the untyped packets before the StartupMessage (through TLS already when the client started it directly,
 * see {@link DirectTlsDetector}), routing to a backend, and the relay of the
 * authentication exchange, which the proxy never decides. Two rewrites only: the secret of the server's
 * BackendKeyData is replaced by one the proxy issued (the process id stays the server's), and
 * SCRAM-SHA-256-PLUS is withdrawn when the two legs' TLS differ, because channel binding ties the SCRAM
 * exchange to one TLS connection and the proxy ends one and starts another.
 *
 * <p>Faults before the StartupMessage is whole are answered as PostgreSQL's ProcessStartupPacket answers
 * them (src/backend/tcop/backend_startup.c): those it reports with FATAL (an unsupported protocol version,
 * a bad parameter layout, no user name, bytes after an SSLRequest) get the same FATAL; those it reports to
 * its log only (COMMERROR: a length no startup packet has, a cancel request of the wrong length, a packet
 * left unfinished) close the connection without a byte, with a line in the proxy's log ({@link #unanswered}).
 * A client over limits.maxClientConnections is refused where PostgreSQL refuses it, after its startup
 * packet: its SSLRequest is answered first, so it reads the refusal ({@link #refuseLogin}).
 */
final class StartupPhase {

    private static final Logger log = LoggerFactory.getLogger(StartupPhase.class);

    private final PgSession session;
    /** The client's StartupMessage, for a login the proxy repeats ({@link ServerRecycler}). */
    private StartupMessage startupMessage;
    /** Watches the relayed login when recycling could use it; null for console logins or with recycling off. */
    private LoginObserver login;
    /** Whether the server has asked this login for a password (or any exchange) before AuthenticationOk. */
    private boolean challenged;
    /** The client asked for TLS with an SSLRequest; TLS without one was started directly. */
    private boolean tlsRequested;
    /** An SSLRequest, a GSSENCRequest was answered: PostgreSQL answers each once per connection. */
    private boolean sslAnswered;
    private boolean gssAnswered;
    /** Sent in place of a login once the StartupMessage has come (too many clients); null to log in. */
    private ErrorResponse loginRefusal;

    StartupPhase(PgSession session) {
        this.session = session;
    }

    /** An untyped packet from the client, before its StartupMessage. */
    void packet(ByteBuf frame) {
        try {
            if (directTlsWithoutAlpn()) {
                unanswered("received direct SSL connection request without ALPN protocol negotiation extension");
                return;
            }
            switch (StartupPacket.decode(frame)) {
                case SslRequest ignored when sslAnswered -> askedAgain(StartupPacket.SSL_REQUEST_CODE);
                case GssEncRequest ignored when gssAnswered -> askedAgain(StartupPacket.GSSENC_REQUEST_CODE);
                case SslRequest ignored -> {
                    sslAnswered = true;
                    sslRequested();
                }
                case GssEncRequest ignored -> {
                    gssAnswered = true;
                    answer(BackendType.ENCRYPTION_REFUSED);
                }
                case CancelRequest cancel -> cancelRequested(cancel);
                case StartupMessage startup -> startupMessage(startup, frame.retain());
            }
        } catch (UnansweredPacketException e) {
            unanswered(e.getMessage());
        } catch (MalformedMessageException e) {
            session.protocolViolation(e.getMessage());
        } finally {
            frame.release();
        }
    }

    /** A fault PostgreSQL logs and closes on without answering: logged here, and nothing sent. */
    void unanswered(String reason) {
        log.info("closing client {} without an answer, as PostgreSQL does: {}",
                SessionInfo.describe(session.client.remoteAddress()), reason);
        session.close();
    }

    /**
     * The connection ended before its StartupMessage: nothing to say for a client that sent nothing (a
     * health check, a port scan), a line for one that left a packet unfinished (PostgreSQL logs it too).
     */
    void clientGone() {
        StartupFrameDecoder framer = session.client.pipeline().get(StartupFrameDecoder.class);
        if (framer != null && framer.endedMidPacket()) {
            log.debug("client {} closed the connection: incomplete startup packet",
                    SessionInfo.describe(session.client.remoteAddress()));
        }
    }

    /**
     * The session may not log in (over limits.maxClientConnections): {@code refusal} is its answer to the
     * StartupMessage. Until then it is served as any other (an encryption request answered, a cancel request
     * passed on), as PostgreSQL serves it, so that a client that asked for TLS first reads the refusal where
     * it expects a server's message; limits.loginTimeout bounds how long it may take to send its packet.
     * No server connection is opened for it.
     */
    void refuseLogin(ErrorResponse refusal) {
        loginRefusal = refusal;
    }

    /**
     * The client started TLS without an SSLRequest and did not name PostgreSQL by ALPN. PostgreSQL 17
     * refuses such a connection (ProcessSSLStartup, to its log only, as the faults above): ALPN is what keeps
     * a TLS connection meant for another protocol (a browser's, say) from being taken for PostgreSQL's.
     */
    private boolean directTlsWithoutAlpn() {
        SslHandler tls = session.client.pipeline().get(SslHandler.class);
        return tls != null && !tlsRequested && !DirectTlsDetector.negotiatedPostgres(tls);
    }

    private void sslRequested() {
        Channel client = session.client;
        if (client.pipeline().get(SslHandler.class) != null) {
            // Inside TLS started directly: PostgreSQL answers 'N', no TLS within TLS, and reads on.
            answer(BackendType.ENCRYPTION_REFUSED);
            return;
        }
        Optional<SslContext> tls = session.services.listenerTls();
        if (tls.isEmpty()) {
            answer(BackendType.ENCRYPTION_REFUSED);
            return;
        }
        if (client.pipeline().get(StartupFrameDecoder.class).hasBufferedBytes()) {
            session.protocolViolation("received unencrypted data after SSL request");
            return;
        }
        // Answer in plain text first, then put TLS in front: the client starts its handshake only
        // once it has read the 'S', and nothing is read meanwhile (AUTO_READ is off).
        client.writeAndFlush(client.alloc().buffer(1).writeByte(BackendType.ENCRYPTION_ACCEPTED));
        tlsRequested = true;
        client.pipeline().addFirst(DirectTlsDetector.TLS_HANDLER, tls.get().newHandler(client.alloc()));
        client.read();
    }

    /**
     * A second SSLRequest or GSSENCRequest: PostgreSQL reads its code as a protocol version, as it reads
     * any request it has answered already, and refuses it ("unsupported frontend protocol 1234.5679").
     */
    private void askedAgain(int code) {
        session.sendFatalAndClose(PgErrors.unsupportedProtocol(code >>> 16, code & 0xffff));
    }

    private void answer(byte code) {
        session.client.writeAndFlush(session.client.alloc().buffer(1).writeByte(code));
        session.client.read();
    }

    private void cancelRequested(CancelRequest request) {
        // PostgreSQL answers a cancel connection with nothing and closes it, whatever the key.
        session.services.shared().cancels().lookup(request.processId(), request.secretKey())
                .ifPresentOrElse(CancelRegistry.Cancellable::cancel,
                        () -> log.debug("cancel request with an unknown key from {}",
                                SessionInfo.describe(session.client.remoteAddress())));
        session.sessionEndExpected();
        session.close();
    }

    private void startupMessage(StartupMessage startup, ByteBuf frame) {
        session.startupMessageReceived();
        if (startup.majorVersion() != 3) {
            frame.release();
            session.sendFatalAndClose(PgErrors.unsupportedProtocol(startup.majorVersion(), startup.minorVersion()));
            return;
        }
        if (startup.user().isEmpty()) {
            frame.release();
            session.sendFatalAndClose(PgErrors.noUserName());
            return;
        }
        if (loginRefusal != null) {
            frame.release();
            session.sendFatalAndClose(loginRefusal);
            return;
        }
        Channel client = session.client;
        session.identified(new SessionInfo(startup.user(), startup.database(),
                startup.parameters().getOrDefault("application_name", ""), client.remoteAddress()));
        session.settings.startupParameters(startup.parameters());
        Optional<BackendTarget> target;
        Optional<ConsoleService> console = session.services.console();
        if (console.isPresent() && startup.database().equals(AdminConfig.CONSOLE_DATABASE)) {
            // The console's login goes to the default backend's server, to a database that exists there.
            target = session.services.defaultBackend();
            if (target.isEmpty()) {
                frame.release();
                session.sendFatalAndClose(PgErrors.consoleWithoutBackend());
                return;
            }
            session.consoleLogin(new ConsolePhase(session, console.get()));
            frame = forDatabase(startup, console.get().authDatabase(), frame);
        } else {
            target = session.services.router().apply(startup.database());
            if (session.services.recycle().enabled()) {
                startupMessage = startup;
                login = new LoginObserver(startup.user(), session.services.recycle().secrets()::secretOf,
                        session.services.recycle().authFile().isPresent());
            }
        }
        if (target.isEmpty()) {
            frame.release();
            session.sendFatalAndClose(PgErrors.unknownDatabase(startup.database()));
            return;
        }
        session.routedTo(target.get());
        // From now on the client speaks typed messages.
        client.pipeline().replace(StartupFrameDecoder.class, "framer",
                new ClientMessageDecoder(new ClientFraming(session), session.services.limits().maxMessageBytes()));
        ByteBuf startupFrame = frame;
        session.services.shared().connector().connect(client.eventLoop(), session.target, new BackendHandler(session),
                        session.services.limits().connectTimeout())
                .addListener(connected -> {
                    if (!connected.isSuccess()) {
                        startupFrame.release();
                        ConnectFailure failure = ConnectFailure.of(connected.cause(), session.target);
                        log.warn("session of {} could not reach backend {} at {}: {}", session.info,
                                session.target.name(), session.target.address(), failure.cause());
                        session.sendFatalAndClose(PgErrors.backendUnreachable(session.target.name(),
                                session.target.address(), failure.cause(), failure.hint()));
                        return;
                    }
                    Channel backend = (Channel) connected.getNow();
                    if (session.state == PgSession.State.CLOSED) {
                        startupFrame.release();
                        backend.close();
                        return;
                    }
                    session.connectedTo(backend);
                    backend.closeFuture().addListener((ChannelFutureListener) closed -> session.backendClosed(backend));
                    backend.write(startupFrame);
                    session.replayHeld();
                    backend.flush();
                    backend.read();
                    session.readClientIfPossible();
                });
    }

    /** A client message during authentication (a password or SASL answer): seen by the login observer, relayed. */
    void clientFrame(ByteBuf frame) {
        if (login != null) {
            login.client(frame);
        }
        session.forwardToBackend(frame);
    }

    /** A server message during authentication: relayed, with the two rewrites described above. */
    void backendFrame(ByteBuf frame) {
        Channel client = session.client;
        switch (frame.getByte(frame.readerIndex())) {
            case Authentication.TYPE -> {
                Authentication request;
                try {
                    request = Authentication.decode(frame);
                } catch (MalformedMessageException e) {
                    // Not ours to judge: the client gets it as it came, and the login is not repeatable.
                    login = null;
                    break;
                }
                if (login != null) {
                    login.server(request);
                }
                if (!(request instanceof Authentication.Ok)) {
                    challenged = true;
                } else if (!challenged) {
                    session.services.shared().passwordlessLogins().loggedInWithoutPassword(session.target,
                            session.info.user());
                }
                if (request instanceof Authentication.Sasl sasl && sasl.offersChannelBinding() && legsDifferInTls()) {
                    frame.release();
                    write(sasl.withoutChannelBinding());
                    return;
                }
            }
            case BackendKeyData.TYPE -> {
                session.serverKey(BackendKeyData.decode(frame));
                frame.release();
                write(session.clientKey());
                return;
            }
            case ReadyForQuery.TYPE -> {
                if (session.console != null) {
                    session.console.loggedIn(frame);
                    return;
                }
                if (login != null) {
                    session.recycler.loggedIn(startupMessage, login.outcome());
                    login = null;
                }
                session.authenticated(ReadyForQuery.decode(frame).status());
            }
            case ErrorResponse.TYPE -> {
                if (ErrorResponse.decode(frame).endsSession()) {
                    session.sessionEndExpected();
                }
            }
            default -> { }
        }
        client.write(frame, client.voidPromise());
    }

    /** The client's StartupMessage for another database: a console login is checked where the role exists. */
    private static ByteBuf forDatabase(StartupMessage startup, String database, ByteBuf original) {
        original.release();
        Map<String, String> parameters = new LinkedHashMap<>(startup.parameters());
        parameters.put("database", database);
        ByteBuf rewritten = Unpooled.buffer();
        new StartupMessage(startup.protocolVersion(), parameters).encode(rewritten);
        return rewritten;
    }

    private boolean legsDifferInTls() {
        boolean clientTls = session.client.pipeline().get(SslHandler.class) != null;
        boolean backendTls = session.backend().pipeline().get(SslHandler.class) != null;
        return clientTls != backendTls;
    }

    private void write(io.memogate.proxy.pg.message.backend.BackendMessage message) {
        ByteBuf out = session.client.alloc().buffer();
        message.encode(out);
        session.client.write(out, session.client.voidPromise());
    }
}
