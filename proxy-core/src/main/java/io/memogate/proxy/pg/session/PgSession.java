package io.memogate.proxy.pg.session;

import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.admission.ServerAdmission;
import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.pg.admission.PreparedQueries;
import io.memogate.proxy.pg.admission.SessionSettings;
import io.memogate.proxy.pg.codec.ClientMessageDecoder;
import io.memogate.proxy.pg.message.backend.BackendKeyData;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.backend.PgErrors;
import io.memogate.proxy.pg.message.backend.ReadyForQuery.TransactionStatus;
import io.memogate.proxy.pg.message.frontend.Terminate;
import io.memogate.proxy.session.HeldInput;
import io.memogate.proxy.session.OnEventLoop;
import io.memogate.proxy.session.OperatorCommand;
import io.memogate.proxy.session.SessionLegs;
import io.memogate.proxy.session.SessionLoop;
import io.memogate.proxy.session.StatementAdmission;
import io.memogate.proxy.session.TrackedSession;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoop;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection and its backend connection (session mode): the PostgreSQL wing's
 * {@link TrackedSession}. Both legs run on the client's event loop, so no state here is shared between
 * threads; other threads reach a session only through {@link #cancel()}, {@link #shutdown()},
 * {@link #describe()} and {@link #operator}, which hop onto that loop. Its phases ask it to change state
 * ({@link #routedTo}, {@link #connectedTo}, {@link #recycling}); only the session writes it.
 *
 * <p>State machine ({@link State}):
 * <pre>
 * STARTUP         untyped packets (SSLRequest, GSSENCRequest, CancelRequest) handled by {@link StartupPhase};
 *                 a StartupMessage routed to a backend                              -> CONNECTING
 * CONNECTING      backend TCP (+ TLS) being opened; client reads paused          -> AUTHENTICATING
 *                 (or FATAL 08001 to the client, then CLOSED)
 * AUTHENTICATING  StartupMessage sent; authentication relayed both ways; the secret of the server's
 *                 BackendKeyData swapped for one issued by the proxy; first ReadyForQuery  -> READY
 * READY           frames relayed in order; Query and Bind pass the admission hook ({@link AdmissionFlow});
 *                 responses drive the release signals ({@link ServerResponses}); a refused statement
 *                 is failed on the server itself ({@link RefusedStatements})
 * RECYCLING       READY and idle, the server connection is being replaced by a new one ({@link ServerRecycler});
 *                 client reads paused, frames already read wait in order                   -> READY
 * CONSOLE         a login to the virtual database "memogate", authenticated by the server like any
 *                 other, then served by the proxy itself, the server connection ended ({@link ConsolePhase})
 * CLOSED          both legs closing; everything held or in flight released
 * </pre>
 *
 * <p>The legs and their back-pressure are the core's {@link SessionLegs}: a leg is read again only when the
 * other can take more and, for the client, when no statement is held for admission ({@link LegsPace}). While
 * one is held, frames already read queue behind it in the core's {@link HeldInput} (at most one read's worth);
 * nothing more is read, so TCP pushes back on the client. The core's {@link StatementAdmission} holds, admits
 * and forwards ({@link AdmissionFlow} says what a PostgreSQL statement is and how it is refused).
 */
public final class PgSession implements CancelRegistry.Cancellable, TrackedSession, SessionLoop {

    private static final Logger log = LoggerFactory.getLogger(PgSession.class);

    enum State { STARTUP, CONNECTING, AUTHENTICATING, READY, RECYCLING, CONSOLE, CLOSED }

    final Channel client;
    /** The client's leg and the server's, and the back-pressure between them. */
    private final SessionLegs legs;
    final SessionServices services;
    final StartupPhase startup;
    final ReleaseTracker tracker = new ReleaseTracker();
    final FatalAfterAnswers fatalAfterAnswers = new FatalAfterAnswers(this, tracker);
    final ServerResponses responses;
    /** Statements run under tighter planner settings, and the proxy's own messages around them. */
    final DegradedRuns degradedRuns = new DegradedRuns();
    final AdmissionFlow admission;
    final ServerRecycler recycler;
    /** The client's frames in order, and the one queue they wait in while something holds its input. */
    private final HeldInput input = new ClientInput(this).queue();
    final SessionSettings settings;
    final Instant connectedAt = Instant.now();

    State state = State.STARTUP;
    BackendTarget target;
    /** The admission of the server {@link #target} names; set with it, when the startup message routes the session. */
    ServerAdmission server;
    SessionInfo info;
    /** Set by the startup phase for a login to the admin console. */
    ConsolePhase console;
    private BackendKeyData serverKey;
    private BackendKeyData clientKey;
    /** The server sent FATAL (or the client sent Terminate): its closing is expected, not a failure. */
    private boolean closeExpected;
    private final ClientTerminate terminate = new ClientTerminate(this);
    private final LoginTimer loginTimer = new LoginTimer(this);

    public PgSession(Channel client, SessionServices services) {
        this.client = client;
        this.legs = new SessionLegs(client, new LegsPace(this));
        this.services = services;
        this.startup = new StartupPhase(this);
        // Read at each statement, after routing: the settings start from the routed server's defaults.
        this.settings = SessionSettings.over(() -> server.support(), services.admission().analyzer());
        RefusedStatements refused = new RefusedStatements();
        this.responses = new ServerResponses(this, tracker, refused, settings, degradedRuns);
        this.admission = new AdmissionFlow(this, tracker, refused, responses, degradedRuns, settings,
                new PreparedQueries(services.admission().analyzer()), fatalAfterAnswers);
        this.recycler = new ServerRecycler(this, services.recycle());
    }

    /** The startup message chose the backend: the session connects to it, with that server's admission. */
    void routedTo(BackendTarget chosen) {
        target = chosen;
        server = services.admission().forServer(chosen.name());
        state = State.CONNECTING;
    }

    /** The startup message named who logs in to which database. */
    void identified(SessionInfo who) {
        info = who;
    }

    /** The login is an operator's, to the admin console: the console serves it once the server accepted it. */
    void consoleLogin(ConsolePhase phase) {
        console = phase;
    }

    /** The server connection is open: the login is relayed over it from now on. */
    void connectedTo(Channel opened) {
        legs.server(opened);
        state = State.AUTHENTICATING;
    }

    /** The server connection is being replaced: what the client sends waits until it is. */
    void recycling() {
        state = State.RECYCLING;
    }

    // ---- client leg -------------------------------------------------------------------------------

    void clientActive() {
        if (!services.listener().opened(this)) {
            startup.refuseLogin(PgErrors.tooManyClients(services.limits().maxClientConnections()));
        }
        loginTimer.start();
        client.read();
    }

    /** The client's StartupMessage came: from here the server's authentication_timeout bounds the login. */
    void startupMessageReceived() {
        loginTimer.stop();
    }

    /** A whole frame from the client: handled now, or queued while something holds the client's input. */
    void clientFrame(ByteBuf frame) {
        input.frame(frame);
    }

    /** What the client sent while its input was held, handled in order until something holds it again. */
    void replayHeld() {
        input.replay();
    }

    /** No frame of the client's waits. */
    boolean nothingHeld() {
        return input.nothingHeld();
    }

    /**
     * The server reads COPY FROM STDIN data and the client has not ended it: not while a statement is held, which
     * the client sent after the copy's statement and which so ended the data (the tracker hears of it later).
     */
    boolean serverReadsCopyData() {
        return tracker.copyingIn() && !admission.holding();
    }

    /** The server began to read COPY data: a message the client began meanwhile may be one it refuses there. */
    void copyDataAwaited() {
        client.eventLoop().execute(() -> { // after the CopyInResponse is relayed: tasks run after the current read
            ClientMessageDecoder framer = client.pipeline().get(ClientMessageDecoder.class);
            if (state == State.READY && framer != null) {
                framer.refusalOfBufferedMessage().ifPresent(this::protocolViolation);
            }
        });
    }

    void clientReadComplete() {
        legs.clientReadComplete();
    }

    void readClientIfPossible() {
        legs.readClientIfAllowed();
    }

    void clientWritabilityChanged() {
        legs.clientWritabilityChanged();
    }

    /** The server connection; null until one is open. */
    Channel backend() {
        return legs.server();
    }

    void clientClosed() {
        if (state == State.CLOSED) {
            return;
        }
        if (terminate.clientClosed()) {
            return; // the server still runs what the client pipelined before its Terminate, then closes
        }
        // A client gone mid-statement: cancel it so the server stops working for nobody, then close.
        if (backend() != null && serverKey != null && admission.busy()) {
            services.shared().cancelForwarder().cancel(client.eventLoop(), target, serverKey);
        }
        close();
    }

    void forwardToBackend(ByteBuf frame) {
        legs.toServer(frame);
    }

    /** The server process's id: the ledger's key. 0 for a server that sent no BackendKeyData (not PostgreSQL's way). */
    long serverConnection() {
        return serverKey == null ? 0 : serverKey.processId();
    }

    // ---- backend leg ------------------------------------------------------------------------------

    /**
     * What the backend leg delivers: single frames during authentication (they may be rewritten), then
     * runs of whole messages, already shown to {@link ServerResponses#message}, forwarded as they came
     * (a big row may come in parts, see {@link ServerResponses#mayStream}).
     */
    void backendRead(ByteBuf messages) {
        switch (state) {
            case AUTHENTICATING -> startup.backendFrame(messages);
            case READY -> {
                if (terminate.clientGone()) {
                    messages.release();
                } else {
                    legs.toClient(messages);
                }
            }
            case RECYCLING -> recycler.serverRun(messages);
            default -> messages.release();
        }
    }

    void backendReadComplete() {
        legs.serverReadComplete();
        if (state == State.READY) {
            recycler.serverQuiet();
        }
    }

    /**
     * The server has answered everything the client sent, the client sent nothing since, and no
     * transaction is open: the moment a server connection can be replaced. Not while the server may still
     * answer Syncs sent among a failed copy's data: the replacement's own answers would be taken for theirs.
     */
    boolean quietAndIdle() {
        return state == State.READY && !admission.busy() && !admission.midCycle() && !admission.midMessage()
                && degradedRuns.idle()
                && !tracker.mayAnswerUnawaited() && input.nothingHeld()
                && responses.transactionStatus() == TransactionStatus.IDLE;
    }

    /**
     * {@link ServerRecycler} logged in again on {@code channel}: it becomes this session's server
     * connection. The client keeps the key the proxy issued, with the first process's id; cancels now go to
     * the new process, and its notifications of the session's own NOTIFYs name the first ({@link ServerResponses}).
     */
    void serverReplaced(Channel channel, BackendKeyData key) {
        legs.server(channel);
        serverKey = key;
        channel.pipeline().replace(BackendConnector.HANDLER, BackendConnector.HANDLER, new BackendHandler(this));
        channel.pipeline().replace(BackendConnector.FRAMER, BackendConnector.FRAMER, responses.newRelay());
        channel.closeFuture().addListener((ChannelFutureListener) closed -> backendClosed(channel));
    }

    /** Recycling is over, done or not: frames the client sent meanwhile go on in order. */
    void recyclingEnded() {
        state = State.READY;
        replayHeld();
        if (state == State.READY) {
            backend().flush();
            backend().read();
            readClientIfPossible();
        }
    }

    void backendWritabilityChanged() {
        legs.serverWritabilityChanged();
    }

    /** A server connection closed: the session's own, or one it has replaced (then nothing happens). */
    void backendClosed(Channel channel) {
        if (channel != backend() || state == State.CLOSED || state == State.CONSOLE || fatalAfterAnswers.serverClosed()) {
            return; // a console ends its server connection itself
        }
        if (!closeExpected && client.isActive()) {
            sendFatalAndClose(PgErrors.backendClosed());
        } else {
            close();
        }
    }

    void backendFailed(Throwable cause) {
        log.warn("backend connection of {} to {} failed: {}", info, target == null ? "?" : target.address(),
                ConnectFailure.plainMessage(cause));
        if (cause instanceof BackendConnector.BackendConnectException refused && client.isActive()) {
            sendFatalAndClose(PgErrors.backendLoginFailed(target.name(), target.address(), target.configPath(),
                    refused.getMessage()));
            return;
        }
        Optional<String> fault = ProtocolFaults.describe(cause);
        if (fault.isPresent() && client.isActive()) {
            sendFatalAndClose(PgErrors.backendMalformed(target.name(), target.address(), fault.get()));
            return;
        }
        backend().close();
    }

    // ---- authentication results (from StartupPhase) -------------------------------------------------

    /** The first ReadyForQuery: the server's messages are relayed in runs, by a framer put in the old one's place. */
    void authenticated(TransactionStatus status) {
        responses.authenticated(status);
        state = State.READY;
        backend().pipeline().replace(BackendConnector.FRAMER, BackendConnector.FRAMER, responses.newRelay());
    }

    /**
     * An admin's console login succeeded: end the server connection, which authenticated the login and
     * has nothing more to do. Its process is no session's, so nothing goes to the ledger or to cancels.
     */
    void consoleStarted() {
        state = State.CONSOLE;
        serverKey = null;
        backend().writeAndFlush(backend().alloc().buffer(5).writeByte(Terminate.TYPE).writeInt(4)).addListener(ChannelFutureListener.CLOSE);
        client.read();
    }

    void serverKey(BackendKeyData key) {
        serverKey = key;
        clientKey = services.shared().cancels().register(this, key.processId(), key.secretKey().length());
    }

    BackendKeyData serverKey() {
        return serverKey;
    }

    BackendKeyData clientKey() {
        return clientKey;
    }

    void sessionEndExpected() {
        closeExpected = true;
    }

    /** The client's Terminate ({@link ClientTerminate}). */
    void terminate(ByteBuf frame) {
        terminate.send(frame);
    }

    // ---- the core's view of the session ({@link SessionLoop}) -----------------------------------------

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
        sendFatalAndClose(PgErrors.internal(what));
    }

    // ---- cancel, shutdown, close ------------------------------------------------------------------

    /**
     * A CancelRequest for this session. A statement still queued for admission is withdrawn and answered
     * 57014 without reaching the server, unless the server is busy with an earlier statement of the
     * same client: PostgreSQL cancels what is running, so then the cancel goes to the server.
     */
    @Override
    public void cancel() {
        client.eventLoop().execute(() -> {
            if (state != State.CLOSED && serverKey != null) {
                cancelNow();
            }
        });
    }

    /** A cancel, on the event loop: true when it withdrew a queued statement, false when it went on (or was moot). */
    boolean cancelNow() {
        boolean withdrawn = admission.withdrawQueued();
        if (!withdrawn) {
            services.shared().cancelForwarder().cancel(client.eventLoop(), target, serverKey);
        }
        return withdrawn;
    }

    /** The admin console's CANCEL or KILL: what it did, or empty when this is not the session it names. */
    @Override
    public CompletionStage<Optional<String>> operator(OperatorCommand command) {
        return OnEventLoop.call(client.eventLoop(), () -> OperatorActions.apply(command, this)).exceptionally(stopping -> Optional.empty());
    }

    /** The proxy is stopping and this session outlived the grace period: tell the client and close. */
    @Override
    public void shutdown() {
        client.eventLoop().execute(() -> {
            if (state != State.CLOSED) {
                sendFatalAndClose(PgErrors.shuttingDown());
            }
        });
    }

    /** From the last ReadyForQuery; a refusal reads it, to fail the client's transaction as the server would. */
    public TransactionStatus transactionStatus() {
        return responses.transactionStatus();
    }

    void protocolViolation(String what) {
        protocolViolation(what, PgErrors.protocolViolation(what));
    }

    /**
     * The client broke the protocol: it gets {@code fatal} and the session ends, once the whole statements it
     * sent before are answered, those still held for admission too ({@link FatalAfterAnswers}).
     *
     * @param fatal the client's FATAL, when it is better said than by {@link PgErrors#protocolViolation}
     */
    void protocolViolation(String what, ErrorResponse fatal) {
        if (fatalAfterAnswers.clientStreamBroken()
                || state == State.READY && fatalAfterAnswers.inTurn(what, fatal, admission.holding())) {
            return; // its FATAL is on its way, or waits its turn
        }
        log.info("closing client {}: {}", SessionInfo.describe(client.remoteAddress()), what);
        sendFatalAndClose(fatal);
    }

    /** The server has answered every whole statement sent, or it waits for the client's COPY data. */
    void serverCaughtUp() {
        fatalAfterAnswers.serverCaughtUp();
    }

    void sendFatalAndClose(ErrorResponse error) {
        // Amid a row relayed in parts the FATAL would be read as the row's rest: the client gets what came
        // of the row, then end of stream, as when a server process dies mid-row.
        if (client.isActive() && !responses.clientMidMessage()) {
            ByteBuf out = client.alloc().buffer();
            error.encode(out);
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
        loginTimer.stop();
        tracker.disconnect();
        admission.closed();
        recycler.closed();
        if (serverKey != null) {
            server.hook().serverConnectionClosed(serverKey.processId());
        }
        input.closed();
        if (clientKey != null) {
            services.shared().cancels().unregister(clientKey);
        }
        legs.close();
        services.listener().closed(this);
    }

    /** What SHOW CLIENTS shows of this session ({@link ClientViews}), taken on its event loop, from any thread. */
    @Override
    public CompletionStage<ClientView> describe() {
        return OnEventLoop.call(client.eventLoop(), () -> ClientViews.of(this));
    }

    @Override
    public String toString() {
        return "PgSession[" + SessionInfo.describe(client.remoteAddress()) + ", " + info + ", " + state + "]";
    }
}
