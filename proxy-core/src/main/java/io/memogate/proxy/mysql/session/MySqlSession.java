package io.memogate.proxy.mysql.session;

import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.admission.ServerAdmission;
import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.memogate.proxy.mysql.message.Capabilities;
import io.memogate.proxy.mysql.message.Commands;
import io.memogate.proxy.mysql.message.ErrPacket;
import io.memogate.proxy.mysql.message.Greeting;
import io.memogate.proxy.mysql.message.HandshakeResponse;
import io.memogate.proxy.mysql.message.MalformedPacketException;
import io.memogate.proxy.mysql.message.MySqlErrors;
import io.memogate.proxy.session.ClientLegHandler;
import io.memogate.proxy.session.HeldInput;
import io.memogate.proxy.session.OnEventLoop;
import io.memogate.proxy.session.OperatorCommand;
import io.memogate.proxy.session.OperatorCommand.Addressee;
import io.memogate.proxy.session.ServerLegHandler;
import io.memogate.proxy.session.SessionLegs;
import io.memogate.proxy.session.SessionLoop;
import io.memogate.proxy.session.TrackedSession;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One MySQL client connection and its server connection: the MySQL wing's {@link TrackedSession}. Both legs
 * run on the client's event loop; other threads reach it only through the methods that hop onto that loop.
 *
 * <p>State machine ({@link State}):
 * <pre>
 * CONNECTING      the server connection being opened; the client is not read (it speaks after the greeting)
 *                 -> GREETING (or ERR 2003 to the client, then CLOSED)
 * GREETING        awaiting the server's greeting: relayed with its capabilities narrowed ({@link Greeting}),
 *                 its thread id unchanged                                            -> AUTHENTICATING
 *                 (a server's ERR instead, 1040 too many connections, relayed as it is; then CLOSED; an ERR
 *                 of the proxy's when the backend must be reached with TLS and does not offer it)
 * AUTHENTICATING  an SSLRequest first, maybe: TLS with the client, and with the server as its tls.mode says
 *                 ({@link Login}; the client's packets wait for the server's handshake); the client's
 *                 HandshakeResponse relayed with the same capabilities cleared, then every packet of the
 *                 authentication both ways as it is (plugin switches, more data; sequence ids shifted where one
 *                 leg had an SSLRequest and the other none), until the server's OK (-> READY) or ERR
 *                 (relayed; the server closes: CLOSED). The proxy decides no login.
 * READY           commands ({@link CommandFlow}): COM_QUERY and COM_STMT_EXECUTE pass admission; answers
 *                 followed to their end ({@link ResponseTracker})
 * CONSOLE         a login to the schema "memogate", accepted by the server: the server connection ended, the
 *                 proxy answers every command itself ({@link MySqlConsole})
 * CLOSED          both legs closing; everything held released
 * </pre>
 * The legs and their back-pressure are the core's {@link SessionLegs}; while a statement is held, what the
 * client sent behind it waits in the core's {@link HeldInput} and the client is not read.
 */
public final class MySqlSession implements TrackedSession, SessionLoop, ClientLegHandler.ClientLeg,
        ServerLegHandler.ServerLeg {

    private static final Logger log = LoggerFactory.getLogger(MySqlSession.class);

    enum State { CONNECTING, GREETING, AUTHENTICATING, READY, CONSOLE, CLOSED }

    final Channel client;
    final MySqlServices services;
    final ServerAdmission server;
    private final SessionLegs legs;
    private final HeldInput input;
    private final PreparedTexts statements = new PreparedTexts();
    final ResponseTracker tracker = new ResponseTracker(statements);
    final CommandFlow flow;
    final Login login;
    final Instant connectedAt = Instant.now();

    State state = State.CONNECTING;
    SessionInfo info;
    /** The server connection's id, from its greeting: what KILL names; 0 before. */
    long threadId;
    /** The sequence id of the client's last packet: an answer of the proxy's takes the next. */
    private int lastSequenceId = -1;
    private ScheduledFuture<?> greetingDeadline;
    /** Set at the login for a console login; null otherwise. */
    private MySqlConsole console;

    public MySqlSession(Channel client, MySqlServices services) {
        this.client = client;
        this.services = services;
        this.server = services.admission().forServer(services.backend().name());
        this.legs = new SessionLegs(client, new Pace());
        this.input = new HeldInput(new Reader());
        this.flow = new CommandFlow(this, tracker, statements);
        this.login = new Login(this);
    }

    // ---- client leg ---------------------------------------------------------------------------------------

    @Override
    public void clientActive() {
        if (!services.listener().opened(this)) {
            failBeforeGreeting(MySqlErrors.tooManyClients(services.limits().maxClientConnections()));
            return;
        }
        var backend = services.backend();
        ChannelFuture connecting = services.shared().connector().connect(client.eventLoop(), backend.host(),
                backend.port(), new ServerLegHandler(this), services.limits().connectTimeout());
        connecting.addListener(done -> {
            if (!done.isSuccess()) {
                log.warn("cannot connect to backend '{}' at {}:{}: {}", backend.name(), backend.host(), backend.port(),
                        done.cause().toString());
                failBeforeGreeting(MySqlErrors.serverUnreachable(backend.name(), backend.host() + ":" + backend.port(),
                        String.valueOf(done.cause().getMessage())));
                connecting.channel().close();
                return;
            }
            if (state == State.CLOSED) {
                connecting.channel().close();
                return;
            }
            Channel opened = connecting.channel();
            legs.server(opened);
            state = State.GREETING;
            opened.closeFuture().addListener(closed -> serverClosed());
            greetingDeadline = client.eventLoop().schedule(() -> {
                if (state == State.GREETING) {
                    failBeforeGreeting(MySqlErrors.serverUnreachable(backend.name(), backend.host() + ":"
                            + backend.port(), "no greeting within limits.connectTimeout"));
                }
            }, services.limits().connectTimeout().toNanos(), TimeUnit.NANOSECONDS);
            opened.read();
        });
    }

    @Override
    public void clientFrame(ByteBuf frame) {
        lastSequenceId = MySqlPackets.sequenceId(frame);
        input.frame(frame);
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

    void toServer(ByteBuf frame) {
        legs.toServer(frame);
    }

    void toClient(ByteBuf packet) {
        legs.toClient(packet);
    }

    /** What the client sent while its input was held, in order until something holds it again; then read on. */
    void replayHeld() {
        input.replay();
        if (state == State.CLOSED) {
            return;
        }
        legs.server().flush();
        client.flush();
        legs.readClientIfAllowed();
    }

    // ---- server leg ---------------------------------------------------------------------------------------

    /** A server packet, owned here: relayed, or released when it breaks the protocol (then the session ends). */
    @Override
    public void serverFrame(ByteBuf packet) {
        try {
            relayServerPacket(packet);
        } catch (MalformedPacketException e) {
            packet.release();
            throw e;
        }
    }

    private void relayServerPacket(ByteBuf packet) {
        switch (state) {
            case GREETING -> greeting(packet);
            case AUTHENTICATING -> {
                int first = MySqlPackets.firstByte(packet);
                login.serverPacket(packet);
                if (first == 0x00 && console != null) {
                    console.loggedIn(packet);
                    return;
                }
                legs.toClient(packet);
                if (first == 0x00) {
                    state = State.READY;
                    legs.readClientIfAllowed();
                }
            }
            case READY -> {
                tracker.serverPacket(packet);
                legs.toClient(packet);
                tracker.answersDue(legs::toClient);
            }
            case CONNECTING, CONSOLE, CLOSED -> packet.release();
        }
    }

    private void greeting(ByteBuf packet) {
        greetingDeadline.cancel(false);
        if (MySqlPackets.firstByte(packet) == ErrPacket.HEADER) {
            legs.toClient(packet); // the server refused the connection (1040, a blocked host): its own words
            close();
            return;
        }
        Greeting greeting = Greeting.rewrite(packet, services.clientTls().isPresent());
        Optional<ErrPacket> refused = login.greeting(greeting);
        if (refused.isPresent()) {
            packet.release();
            failBeforeGreeting(refused.get());
            return;
        }
        threadId = greeting.threadId();
        services.shared().kills().register(services.backend().name(), threadId, this);
        legs.toClient(packet);
        state = State.AUTHENTICATING;
        legs.readClientIfAllowed();
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
        if (state == State.CONSOLE) {
            return; // a console ends its server connection itself
        }
        if (login.serverHandshaking()) {
            sendErrorAndClose(login.failed("the server closed the connection"));
            return;
        }
        if (state == State.GREETING) {
            failBeforeGreeting(MySqlErrors.serverLost("the server closed the connection before its greeting"));
            return;
        }
        close(); // as when the server itself goes away: the client sees its connection end
    }

    @Override
    public void serverFailed(Throwable cause) {
        if (state == State.CONSOLE) {
            return;
        }
        log.warn("server connection of {} failed: {}", this, cause.toString());
        if (state == State.READY && tracker.idle() || state == State.GREETING) {
            sendErrorAndClose(MySqlErrors.serverLost(cause.getMessage()), state == State.GREETING ? 0 : 1);
        } else {
            close();
        }
    }

    // ---- login -----------------------------------------------------------------------------------------------

    /** The client's HandshakeResponse, about to be relayed: who logs in, and the shape of the answers. */
    void loggingIn(HandshakeResponse response) {
        info = new SessionInfo(response.user(), response.database(), response.program(), client.remoteAddress());
        tracker.deprecateEof((response.capabilities() & Capabilities.CLIENT_DEPRECATE_EOF) != 0);
    }

    /** The login is an operator's, to the admin console: the console serves it once the server accepted it. */
    void consoleLogin(MySqlConsole console) {
        this.console = console;
    }

    /**
     * An admin's console login succeeded: the server connection, which authenticated it, ends (COM_QUIT) and
     * no longer counts for admission or KILL; the client is read for the console's commands.
     */
    void consoleStarted() {
        state = State.CONSOLE;
        services.shared().kills().unregister(services.backend().name(), threadId, this);
        server.hook().serverConnectionClosed(threadId);
        threadId = 0;
        Channel opened = legs.server();
        ByteBuf quit = opened.alloc().buffer(5);
        MySqlPackets.writeHeader(quit, 1, 0);
        opened.writeAndFlush(quit.writeByte(Commands.COM_QUIT)).addListener(ChannelFutureListener.CLOSE);
        legs.readClientIfAllowed();
    }

    Channel serverChannel() {
        return legs.server();
    }

    // ---- ending -------------------------------------------------------------------------------------------

    /** The client sent COM_QUIT: it goes to the server, and the session ends. */
    void quit(ByteBuf frame) {
        legs.toServer(frame);
        close();
    }

    /** Before the greeting: an ERR takes the greeting's place (sequence id 0), as a server's own refusal does. */
    private void failBeforeGreeting(ErrPacket error) {
        sendErrorAndClose(error, 0);
    }

    /** An ERR after the client's last packet, then the end. */
    @Override
    public void refuseTooLarge() {
        sendErrorAndClose(MySqlErrors.packetTooLarge(services.limits().maxMessageBytes()));
    }

    @Override
    public void refuseMalformed(String what) {
        sendErrorAndClose(MySqlErrors.malformed(what));
    }

    void sendErrorAndClose(ErrPacket error) {
        sendErrorAndClose(error, lastSequenceId + 1);
    }

    void sendErrorAndClose(ErrPacket error, int sequenceId) {
        if (state != State.CLOSED && client.isActive()) {
            ByteBuf out = client.alloc().buffer();
            error.encode(out, sequenceId & 0xFF);
            client.writeAndFlush(out);
        }
        close();
    }

    /** Ends the session: idempotent, releases everything held, closes both legs after a flush. */
    void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        if (greetingDeadline != null) {
            greetingDeadline.cancel(false);
        }
        login.closed();
        flow.closed();
        tracker.disconnect();
        input.closed();
        if (threadId != 0) {
            services.shared().kills().unregister(services.backend().name(), threadId, this);
            server.hook().serverConnectionClosed(threadId);
        }
        legs.close();
        services.listener().closed(this);
    }

    // ---- other threads ------------------------------------------------------------------------------------

    /** KILL QUERY from another connection: withdraws the statement held for admission; true when there was one. */
    CompletionStage<Boolean> withdrawHeld() {
        return OnEventLoop.call(client.eventLoop(), () -> state == State.READY && flow.withdraw())
                .exceptionally(stopping -> false);
    }

    @Override
    public CompletionStage<ClientView> describe() {
        return OnEventLoop.call(client.eventLoop(), () -> SessionView.of(this));
    }

    @Override
    public CompletionStage<Optional<String>> operator(OperatorCommand command) {
        return OnEventLoop.call(client.eventLoop(), () -> operate(command)).exceptionally(stopping -> Optional.empty());
    }

    private Optional<String> operate(OperatorCommand command) {
        return command.carryOut(new Addressee(services.backend().name(), threadId, state == State.CLOSED, info),
                by -> sendErrorAndClose(MySqlErrors.killedByOperator(by), 1),
                () -> flow.withdraw() ? "withdrew the statement of " + info + " from its admission queue"
                        : "nothing held for admission in the session of " + info + ": run KILL QUERY " + threadId
                        + " on the server to stop what it runs");
    }

    @Override
    public void shutdown() {
        client.eventLoop().execute(() -> sendErrorAndClose(MySqlErrors.shuttingDown()));
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
        sendErrorAndClose(MySqlErrors.internal(what));
    }

    @Override
    public String toString() {
        return "MySqlSession[" + SessionInfo.describe(client.remoteAddress()) + ", " + info + ", thread " + threadId
                + ", " + state + "]";
    }

    /** When each leg is read, by the session's state. */
    private final class Pace implements SessionLegs.Pace {
        @Override
        public SessionLegs.ClientRead clientRead() {
            return switch (state) {
                case AUTHENTICATING -> SessionLegs.ClientRead.WHEN_SERVER_WRITABLE;
                case READY -> flow.holding() ? SessionLegs.ClientRead.WAIT : SessionLegs.ClientRead.WHEN_SERVER_WRITABLE;
                case CONSOLE -> console.busy() ? SessionLegs.ClientRead.WAIT : SessionLegs.ClientRead.NOW;
                case CONNECTING, GREETING, CLOSED -> SessionLegs.ClientRead.WAIT;
            };
        }

        @Override
        public boolean serverReadAhead() {
            return false;
        }

        @Override
        public boolean ended() {
            return state == State.CLOSED;
        }
    }

    /** Where a client packet goes, by the session's state; the core's {@link HeldInput} queues it meanwhile. */
    private final class Reader implements HeldInput.Reader {
        @Override
        public boolean inputEnded() {
            return false;
        }

        @Override
        public boolean holds() {
            return switch (state) {
                case CONNECTING, GREETING -> true;
                case READY -> flow.holding();
                case CONSOLE -> console.busy();
                case AUTHENTICATING -> login.serverHandshaking();
                case CLOSED -> false;
            };
        }

        @Override
        public boolean ended() {
            return state == State.CLOSED;
        }

        @Override
        public void dispatch(ByteBuf frame) {
            switch (state) {
                case AUTHENTICATING -> login.clientPacket(frame);
                case READY -> flow.command(frame);
                case CONSOLE -> console.command(frame);
                case CONNECTING, GREETING, CLOSED -> frame.release();
            }
        }
    }
}
