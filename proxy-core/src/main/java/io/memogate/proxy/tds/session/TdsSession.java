package io.memogate.proxy.tds.session;

import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.admission.ServerAdmission;
import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.session.ClientLegHandler;
import io.memogate.proxy.session.HeldInput;
import io.memogate.proxy.session.OnEventLoop;
import io.memogate.proxy.session.OperatorCommand.Addressee;
import io.memogate.proxy.session.OperatorCommand;
import io.memogate.proxy.session.ServerLegHandler;
import io.memogate.proxy.session.SessionLegs;
import io.memogate.proxy.session.SessionLoop;
import io.memogate.proxy.session.TrackedSession;
import io.memogate.proxy.tds.codec.TdsPackets;
import io.memogate.proxy.tds.message.Done;
import io.memogate.proxy.tds.message.Login7;
import io.memogate.proxy.tds.message.LoginResponse;
import io.memogate.proxy.tds.message.MalformedPacketException;
import io.memogate.proxy.tds.message.PacketType;
import io.memogate.proxy.tds.message.Prelogin;
import io.memogate.proxy.tds.message.TdsError;
import io.memogate.proxy.tds.message.TdsErrors;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One TDS client connection and its server connection: the TDS wing's {@link TrackedSession}. Both legs run on
 * the client's event loop; other threads reach it only through the methods that hop onto that loop.
 *
 * <p>State machine ({@link State}):
 * <pre>
 * CONNECTING      the server connection being opened; what the client sent (its PRELOGIN) waits
 *                 -> PRELOGIN (or a fatal ERROR to the client, then CLOSED)
 *                 (and, toward a strict backend, its TLS set up first: {@link TlsLegs})
 * PRELOGIN        awaiting the client's PRELOGIN: relayed with ENCRYPTION (what the proxy asks of the server) and
 *                 MARS rewritten ({@link Prelogin})                                      -> PRELOGIN_REPLY
 *                 (a LOGIN7 without PRELOGIN goes on as in LOGIN)
 * PRELOGIN_REPLY  the server's answer, relayed with ENCRYPTION rewritten to what the client's leg gets; each leg's
 *                 TLS handshake then runs inside PRELOGIN packets ({@link TlsLegs}). A leg that cannot be set up as
 *                 negotiated gets no login: the client's LOGIN7 is answered with a fatal ERROR saying why
 *                                                                  -> SERVER_TLS, or LOGIN
 * SERVER_TLS      the proxy's handshake with the server; what the client sends (its LOGIN7) waits -> LOGIN
 * LOGIN           LOGIN7 relayed unchanged (who logs in, the packet size asked; a leg encrypted for the login only
 *                 then drops its TLS), then every message both ways as it is (SSPI, FEDAUTH), until a server answer
 *                 that holds a LOGINACK, held until its end                             -> READY
 *                 (a failed login: the server's ERROR relayed, then it closes: CLOSED)
 *                 (an answer that routes to another server: dropped, and followed       -> REROUTING)
 * REROUTING       the proxy logs in to the routed server for the client ({@link Rerouting}) -> LOGIN
 * READY           requests ({@link BatchFlow}): SQLBatch through admission, ATTENTION answered here for a held
 *                 batch; answers relayed, followed to their end ({@link Replies})
 * CLOSED          both legs closing; everything held released
 * </pre>
 * The legs and their back-pressure are the core's {@link SessionLegs}; while a batch is held, what the client
 * sends behind it waits in the core's {@link HeldInput}. The client is still read while it sends nothing else, so
 * that its ATTENTION (its cancel, or its query timeout) is seen.
 */
public final class TdsSession implements TrackedSession, SessionLoop, ClientLegHandler.ClientLeg,
        ServerLegHandler.ServerLeg {

    private static final Logger log = LoggerFactory.getLogger(TdsSession.class);

    enum State { CONNECTING, PRELOGIN, PRELOGIN_REPLY, SERVER_TLS, LOGIN, REROUTING, READY, CLOSED }

    final Channel client;
    final TdsServices services;
    final ServerAdmission server;
    private final SessionLegs legs;
    final HeldInput input;
    final Replies replies = new Replies();
    final BatchFlow flow;
    final TlsLegs tls;
    final Rerouting rerouting = new Rerouting(this);
    final Instant connectedAt = Instant.now();

    State state = State.CONNECTING;
    SessionInfo info;
    /** The server's process id for this connection, from the headers of its packets: 0 until it answers. */
    int spid;
    /** The packet size the proxy's own answers respect: LOGIN7's, then the server's ENVCHANGE. */
    private int packetSize = TdsPackets.DEFAULT_PACKET_SIZE;
    /**
     * The client speaks TDS 7.2 or later: its SQLBatch and RPC messages begin with ALL_HEADERS, and a DONE's row
     * count is 8 bytes (4 before).
     */
    boolean allHeaders = true;
    /** Why the login is refused when it comes (a leg's encryption cannot be set up); null: it is relayed. */
    private TdsError refusal;
    private final LoginAnswer loginAnswer = new LoginAnswer();

    public TdsSession(Channel client, TdsServices services) {
        this.client = client;
        this.services = services;
        this.server = services.admission().forServer(services.backend().name());
        Pacing pacing = new Pacing(this);
        this.legs = new SessionLegs(client, pacing);
        this.input = new HeldInput(pacing);
        this.flow = new BatchFlow(this, replies);
        this.tls = new TlsLegs(this);
    }

    // ---- client leg ---------------------------------------------------------------------------------------

    @Override
    public void clientActive() {
        if (!services.listener().opened(this)) {
            sendErrorAndClose(TdsErrors.tooManyClients(services.limits().maxClientConnections()));
            return;
        }
        var backend = services.backend();
        String address = backend.host() + ":" + backend.port();
        ChannelFuture connecting = services.connector().connect(client.eventLoop(), backend.host(), backend.port(),
                new ServerLegHandler(this), services.limits().connectTimeout());
        connecting.addListener(done -> {
            if (!done.isSuccess()) {
                log.warn("cannot connect to backend '{}' at {}: {}", backend.name(), address, done.cause().toString());
                sendErrorAndClose(TdsErrors.serverUnreachable(backend.name(), address,
                        String.valueOf(done.cause().getMessage())));
                connecting.channel().close();
                return;
            }
            if (state == State.CLOSED) {
                connecting.channel().close();
                return;
            }
            Channel opened = connecting.channel();
            serverOpened(opened);
            tls.serverConnected(opened, backend.tlsServerName(), backend.port(), () -> {
                state = State.PRELOGIN;
                opened.read();
                replayHeld();
            });
        });
        legs.readClientIfAllowed();
    }

    /** A whole client message (or an ATTENTION packet), owned here. */
    @Override
    public void clientFrame(ByteBuf message) {
        if (state == State.READY && TdsPackets.type(message) == PacketType.ATTENTION && flow.holding()) {
            if (flow.attention(message)) {
                return;
            }
        }
        input.frame(message);
    }

    @Override
    public void clientReadComplete() {
        legs.clientReadComplete();
    }

    @Override
    public void clientWritabilityChanged() {
        legs.clientWritabilityChanged();
    }

    @Override
    public void clientClosed() {
        close();
    }

    void toServer(ByteBuf message) {
        legs.toServer(message);
    }

    /** A batch began to wait: the client is read on, for its ATTENTION. */
    void readClientForAttention() {
        legs.readClientIfAllowed();
    }

    /** What the client sent while its input was held, in order until something holds it again; then read on. */
    void replayHeld() {
        input.replay();
        if (state == State.CLOSED) {
            return;
        }
        if (legs.server() != null) {
            legs.server().flush();
        }
        client.flush();
        legs.readClientIfAllowed();
    }

    void dispatch(ByteBuf message) {
        try {
            switch (state) {
                case PRELOGIN -> prelogin(message);
                case LOGIN -> login(message);
                case READY -> flow.request(message);
                case CONNECTING, PRELOGIN_REPLY, SERVER_TLS, REROUTING, CLOSED -> message.release();
            }
        } catch (MalformedPacketException e) {
            message.release(); // read before it was handed on
            log.info("closing client {}: {}", SessionInfo.describe(client.remoteAddress()), e.getMessage());
            sendErrorAndClose(TdsErrors.malformed(e.getMessage()));
        }
    }

    private void prelogin(ByteBuf message) {
        int type = TdsPackets.type(message);
        if (type == PacketType.LOGIN7) {
            state = State.LOGIN; // a client that skips PRELOGIN encrypts nothing
            login(message);
            return;
        }
        if (type != PacketType.PRELOGIN) {
            throw new MalformedPacketException("a message of type " + type + " where PRELOGIN or LOGIN7 belongs");
        }
        tls.clientPrelogin(message);
        rerouting.preloginSent(message);
        state = State.PRELOGIN_REPLY;
        legs.toServer(message);
    }

    private void login(ByteBuf message) {
        if (refusal != null || TdsPackets.type(message) == PacketType.PRELOGIN) {
            // A leg that cannot be encrypted as negotiated, or a client that starts TLS (its handshake in PRELOGIN
            // packets) after it was told there is none: refused in the answer to its login, which a client reports
            // as the server's error.
            message.release();
            sendErrorAndClose(refusal != null ? refusal : TdsErrors.clientEncryption());
            return;
        }
        if (TdsPackets.type(message) == PacketType.LOGIN7) {
            ByteBuf data = TdsPackets.data(message, client.alloc());
            rerouting.loginSent(data); // kept there (released at the end), for a server the answer may route to
            Login7 login = Login7.decode(data);
            allHeaders = login.allHeaders();
            info = new SessionInfo(login.user(), login.database(), login.applicationName(), client.remoteAddress());
            if (login.packetSize() >= TdsPackets.MIN_PACKET_SIZE && login.packetSize() <= TdsPackets.MAX_PACKET) {
                packetSize = (int) login.packetSize();
            }
            legs.toServer(message);
            tls.loginRelayed();
            return;
        }
        rerouting.loginContinued();
        info = IntegratedLogin.named(info, message, client.alloc()); // LOGIN7 named no user: the NTLM account
        legs.toServer(message);
    }

    // ---- server leg ---------------------------------------------------------------------------------------

    /** A server packet, owned here: relayed, or released when it breaks the protocol (then the session ends). */
    @Override
    public void serverFrame(ByteBuf packet) {
        spid = TdsPackets.spid(packet);
        switch (state) {
            case PRELOGIN_REPLY -> preloginReply(packet);
            case LOGIN -> loginAnswer(packet);
            case REROUTING -> rerouting.serverFrame(packet);
            case READY -> {
                replies.serverPacket(packet);
                legs.toClient(packet);
            }
            case CONNECTING, PRELOGIN, SERVER_TLS, CLOSED -> packet.release();
        }
    }

    private void preloginReply(ByteBuf packet) {
        try {
            refusal = tls.serverAnswered(packet).orElse(null);
        } catch (MalformedPacketException e) {
            packet.release();
            log.warn("the server of {} answered PRELOGIN wrongly: {}", this, e.getMessage());
            sendErrorAndClose(TdsErrors.serverLost("its PRELOGIN answer is malformed: " + e.getMessage()));
            return;
        }
        legs.toClient(packet);
        client.flush(); // before TLS comes onto the client's pipeline: the answer goes out in clear
        tls.startClient();
        if (tls.startServer(this::serverTlsReady, this::serverTlsFailed)) {
            state = State.SERVER_TLS;
            return;
        }
        serverTlsReady();
    }

    private void serverTlsReady() {
        state = State.LOGIN;
        replayHeld();
    }

    /** The server's connection is gone with its handshake: the client's LOGIN7 is answered with {@code why}. */
    private void serverTlsFailed(TdsError why) {
        refusal = why;
        serverTlsReady();
    }

    Channel serverChannel() {
        return legs.server();
    }

    /** {@code opened} is the server's connection from now on; its closing ends the session while it is. */
    void serverOpened(Channel opened) {
        legs.server(opened);
        opened.closeFuture().addListener(closed -> {
            if (legs.server() == opened) {
                serverClosed();
            }
        });
    }

    /** Lets the server's connection go, unheard from now on: its answer routed the login elsewhere. */
    void dropServer() {
        Channel dropped = legs.server();
        legs.server(null);
        state = State.REROUTING;
        if (spid != 0) {
            server.hook().serverConnectionClosed(spid);
            spid = 0;
        }
        if (dropped.pipeline().get(ServerLegHandler.class) != null) {
            dropped.pipeline().remove(ServerLegHandler.class);
        }
        dropped.close();
    }

    /** The client's LOGIN7 went to the routed server: its answer is awaited as the first server's was. */
    void routedLoginSent() {
        state = State.LOGIN;
        legs.server().flush();
        legs.server().read();
    }

    private void loginAnswer(ByteBuf packet) {
        Optional<LoginResponse> read;
        try {
            read = loginAnswer.add(packet, client.alloc());
        } catch (MalformedPacketException e) {
            loginAnswer.release();
            log.warn("the server of {} answered the login wrongly: {}", this, e.getMessage());
            sendErrorAndClose(TdsErrors.serverLost("its login answer is malformed: " + e.getMessage()));
            return;
        }
        if (read.isEmpty()) {
            return;
        }
        LoginResponse answer = read.get();
        if (answer.routing().isPresent()) {
            loginAnswer.release(); // not the client's: the proxy follows it, and relays the routed server's answer
            rerouting.follow(answer.routing().get());
            return;
        }
        loginAnswer.relay(legs::toClient);
        answer.packetSize().ifPresent(size -> packetSize = size);
        if (answer.loggedIn()) {
            state = State.READY;
            rerouting.loggedIn();
            replayHeld();
        }
    }

    @Override
    public void serverReadComplete() {
        legs.serverReadComplete();
    }

    @Override
    public void serverWritabilityChanged() {
        legs.serverWritabilityChanged();
    }

    private void serverClosed() {
        if (refusal != null && state == State.LOGIN) {
            return; // the client's LOGIN7 is answered with the refusal: it says why better than a closed connection
        }
        if (state == State.REROUTING) {
            rerouting.lost("it closed the connection before the login");
            return;
        }
        close(); // as when the server itself goes away: the client sees its connection end
    }

    @Override
    public void serverFailed(Throwable cause) {
        log.warn("server connection of {} failed: {}", this, cause.toString());
        if (refusal != null && state == State.LOGIN) {
            // A failed TLS handshake with the server fails its connection too, maybe before the client's LOGIN7 came:
            // that LOGIN7 is answered with the refusal, which says why, rather than the connection closed unexplained.
            return;
        }
        if (state == State.REROUTING) {
            rerouting.lost(String.valueOf(cause.getMessage()));
        } else if (state == State.READY && replies.idle()) {
            sendErrorAndClose(TdsErrors.serverLost(String.valueOf(cause.getMessage())));
        } else {
            close();
        }
    }

    // ---- the proxy's own answers --------------------------------------------------------------------------

    /** Answers the request in flight here: {@code error} (null: none), then {@code dones}, in the packet size agreed. */
    void reply(TdsError error, Done... dones) {
        ByteBuf data = client.alloc().buffer();
        if (error != null) {
            error.encode(data);
        }
        for (Done done : dones) {
            done.encode(data, allHeaders); // TDS 7.2 brought both ALL_HEADERS and 8-byte row counts
        }
        legs.toClient(TdsPackets.message(client.alloc(), PacketType.TABULAR_RESULT, data, packetSize, spid));
        client.flush();
    }

    /** A fatal error, then the end. */
    @Override
    public void refuseTooLarge() {
        sendErrorAndClose(TdsErrors.messageTooLarge(services.limits().maxMessageBytes()));
    }

    @Override
    public void refuseMalformed(String what) {
        sendErrorAndClose(TdsErrors.malformed(what));
    }

    void sendErrorAndClose(TdsError error) {
        if (state != State.CLOSED && client.isActive()) {
            reply(error, Done.ERROR);
        }
        close();
    }

    /** Ends the session: idempotent, releases everything held, closes both legs after a flush. */
    void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        loginAnswer.release();
        rerouting.release();
        flow.closed();
        replies.disconnect();
        input.closed();
        if (spid != 0) {
            server.hook().serverConnectionClosed(spid);
        }
        legs.close();
        services.listener().closed(this);
    }

    // ---- other threads ------------------------------------------------------------------------------------

    @Override
    public CompletionStage<ClientView> describe() {
        return OnEventLoop.call(client.eventLoop(), () -> TdsSessionView.of(this));
    }

    @Override
    public CompletionStage<Optional<String>> operator(OperatorCommand command) {
        return OnEventLoop.call(client.eventLoop(), () -> operate(command)).exceptionally(stopping -> Optional.empty());
    }

    private Optional<String> operate(OperatorCommand command) {
        return command.carryOut(new Addressee(services.backend().name(), spid, state == State.CLOSED, info),
                by -> sendErrorAndClose(TdsErrors.killedByOperator(by)),
                () -> flow.withdraw() ? "withdrew the batch of " + info + " from its admission queue"
                        : "nothing held for admission in the session of " + info + ": run KILL " + spid
                        + " on the server to stop what it runs");
    }

    @Override
    public void shutdown() {
        client.eventLoop().execute(() -> sendErrorAndClose(TdsErrors.shuttingDown()));
    }

    // ---- the core's view ------------------------------------------------------------------------------------

    @Override
    public EventLoop eventLoop() {
        return client.eventLoop();
    }

    @Override
    public boolean ended() {
        return state == State.CLOSED;
    }

    @Override
    public void failInternally(String what) {
        sendErrorAndClose(TdsErrors.internal(what));
    }

    @Override
    public String toString() {
        return "TdsSession[" + SessionInfo.describe(client.remoteAddress()) + ", " + info + ", spid " + spid + ", "
                + state + "]";
    }
}
