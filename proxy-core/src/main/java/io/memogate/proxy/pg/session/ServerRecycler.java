package io.memogate.proxy.pg.session;

import io.memogate.proxy.config.Durations;
import io.memogate.proxy.config.RecycleConfig;
import io.memogate.proxy.pg.auth.LoginObserver;
import io.memogate.proxy.pg.auth.Relogin;
import io.memogate.proxy.pg.auth.ServerLogin;
import io.memogate.proxy.pg.message.backend.Authentication;
import io.memogate.proxy.pg.message.backend.BackendKeyData;
import io.memogate.proxy.pg.message.backend.DataRow;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.backend.ReadyForQuery;
import io.memogate.proxy.pg.message.frontend.Bind;
import io.memogate.proxy.pg.message.frontend.Close;
import io.memogate.proxy.pg.message.frontend.Execute;
import io.memogate.proxy.pg.message.frontend.Parse;
import io.memogate.proxy.pg.message.frontend.StartupMessage;
import io.memogate.proxy.pg.message.frontend.StatementOrPortal;
import io.memogate.proxy.pg.message.frontend.Sync;
import io.memogate.proxy.pg.message.frontend.Terminate;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replaces a session's server connection with a new one when the server process keeps more memory than
 * {@code recycle.retainedAbove} (DESIGN.md, "sticky": a PostgreSQL backend gives its planner memory
 * back only when it exits), without the client noticing. Used on the session's event loop only.
 *
 * <p>Steps, each a state of this class while the session is {@link PgSession.State#RECYCLING} (client
 * not read; frames already read wait in order and are replayed after):
 * <ol>
 *   <li>when the server has answered everything and the session is idle outside a transaction (at the
 *       client's next message, or after {@link #IDLE_GRACE_NANOS} of quiet), with
 *       a known way to log in again ({@link LoginObserver}) and the ledger's figure for its process above
 *       the limit: ask the server itself whether the session holds anything a new connection would lack
 *       ({@link SessionStateCheck}); the answer is consumed here, never forwarded;
 *   <li>nothing held: open a new server connection and repeat the client's login ({@link ServerLogin}),
 *       swallowing the ParameterStatus and notices the client has seen already; then give it the
 *       session's own settings (set_config), which the check also reported;
 *   <li>logged in: end the old connection (Terminate), tell the ledger its memory is free, and go on
 *       with the new one. If the new login fails, the old connection simply stays.
 * </ol>
 * A session found holding state is asked again no sooner than {@link #RECHECK_AFTER_NANOS} later.
 */
final class ServerRecycler {

    private static final Logger log = LoggerFactory.getLogger(ServerRecycler.class);

    static final long RECHECK_AFTER_NANOS = TimeUnit.SECONDS.toNanos(30);
    static final long IDLE_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private enum Step { IDLE, CHECKING, LOGGING_IN, RESTORING }

    private final PgSession session;
    private final RecycleConfig config;
    private StartupMessage startup;
    private Optional<Relogin> relogin = Optional.empty();
    private String whyNot = "the login was not seen";
    private boolean toldWhyNot;
    private long notBeforeNanos = Long.MIN_VALUE;
    private Step step = Step.IDLE;
    /** Counts attempts, so that a timer set for one finds it over when a later one runs. */
    private long attempt;
    private long retainedWhenStarted;
    private boolean timerPending;
    /** {@link #serverQuiet} found every condition holding at the last ReadyForQuery. */
    private boolean due;
    private int recycled;
    // CHECKING
    private CarriedState carried = new CarriedState();
    private String checkError;
    // LOGGING_IN
    private Channel fresh;
    private ServerLogin login;
    private BackendKeyData freshKey;
    private String restoreError;

    ServerRecycler(PgSession session, RecycleConfig config) {
        this.session = session;
        this.config = config;
    }

    /** The client's login succeeded: remember how to repeat it. */
    void loggedIn(StartupMessage startup, LoginObserver.Outcome outcome) {
        this.startup = startup;
        this.relogin = outcome.relogin();
        this.whyNot = outcome.reason();
    }

    /**
     * The server leg delivered everything it had and the session is READY. A connection that stays quiet
     * for {@link #IDLE_GRACE_NANOS} is recycled then: not at once, because a client that is about to
     * disconnect (one connection per query) would make the proxy log in for nobody.
     */
    void serverQuiet() {
        due = wanted();
        if (!due || timerPending) {
            return;
        }
        timerPending = true;
        session.client.eventLoop().schedule(() -> {
            timerPending = false;
            if (wanted()) {
                start();
            }
        }, IDLE_GRACE_NANOS, TimeUnit.NANOSECONDS);
    }

    /**
     * A client frame arrives while the session is quiet: a client that sends its next statement at once
     * (a pool, a loop) is never quiet for long, so its connection is recycled now, before the statement
     * goes on, and the caller holds the frame until then. Returns whether that happened. A Terminate
     * never starts it: the connection is about to end anyway. Decided by what {@link #serverQuiet} found
     * at the last ReadyForQuery, so the client's messages never take the gateways' lock here.
     */
    boolean clientFrameWhileQuiet(ByteBuf frame) {
        if (!due || frame.getByte(frame.readerIndex()) == Terminate.TYPE || !session.quietAndIdle()) {
            return false;
        }
        start();
        return true;
    }

    /**
     * Every condition for recycling now holds: enabled, the session quiet and idle, not backing off, the
     * ledger's figure above the limit, and a way to log in again (else, once, a line saying why not). The
     * cheap conditions come first; the ledger lookup takes the gateways' lock.
     */
    private boolean wanted() {
        if (!config.enabled() || startup == null || !session.quietAndIdle() || System.nanoTime() < notBeforeNanos
                || relogin.isEmpty() && toldWhyNot) { // said why not once: the ledger need not be asked again
            return false;
        }
        long retained = session.server.hook().retainedBytes(session.serverConnection());
        if (retained <= config.retainedAboveBytes()) {
            return false;
        }
        if (relogin.isEmpty()) {
            if (!toldWhyNot) {
                toldWhyNot = true;
                log.info("server connection {} of {} keeps {} MB but cannot be recycled: {}", session.serverConnection(),
                        session.info, retained >> 20, whyNot);
            }
            return false;
        }
        retainedWhenStarted = retained;
        return true;
    }

    /** Step 1: the state check on the current connection. */
    private void start() {
        due = false;
        step = Step.CHECKING;
        long thisAttempt = ++attempt;
        // Nothing here may hold the client for long: a check or a login that does not answer in time ends.
        session.client.eventLoop().schedule(() -> timedOut(thisAttempt), session.services.limits().connectTimeout().toNanos(),
                TimeUnit.NANOSECONDS);
        carried = new CarriedState();
        checkError = null;
        session.recycling();
        ByteBuf out = session.backend().alloc().buffer();
        new Parse(SessionStateCheck.STATEMENT, SessionStateCheck.sql(startup.parameters()), List.of()).encode(out);
        new Bind("", SessionStateCheck.STATEMENT).encode(out);
        new Execute("", 0).encode(out);
        new Close(StatementOrPortal.STATEMENT, SessionStateCheck.STATEMENT).encode(out);
        Sync.INSTANCE.encode(out);
        session.backend().writeAndFlush(out, session.backend().voidPromise());
        session.backend().read();
    }

    private void timedOut(long timedAttempt) {
        if (timedAttempt != attempt || step == Step.IDLE) {
            return;
        }
        if (step == Step.CHECKING) {
            // The check fails with 57014 and the session goes on, trying again no sooner than later.
            log.warn("server connection {} of {}: the state check did not answer within {} (limits.connectTimeout); "
                    + "cancelling it", session.serverConnection(), session.info,
                    Durations.format(session.services.limits().connectTimeout()));
            session.services.shared().cancelForwarder().cancel(session.client.eventLoop(), session.target, session.serverKey());
        } else {
            loginFailed("no answer within " + Durations.format(session.services.limits().connectTimeout())
                    + " (limits.connectTimeout)");
        }
    }

    /** Messages from the current server connection while RECYCLING, already inspected by {@link ServerResponses}. */
    void serverRun(ByteBuf run) {
        if (step != Step.CHECKING) {
            // Unsolicited (a notice, a parameter change) while logging in elsewhere: the client's, as always.
            session.client.write(run, session.client.voidPromise());
            return;
        }
        try {
            for (int at = run.readerIndex(); at < run.writerIndex(); at += 1 + run.getInt(at + 1)) {
                checkMessage(run.getByte(at), run, at);
            }
        } finally {
            run.release();
        }
    }

    private void checkMessage(byte type, ByteBuf run, int at) {
        switch (type) {
            case DataRow.TYPE -> {
                List<String> row = DataRow.decode(run.slice(at, 1 + run.getInt(at + 1))).values();
                carried.row(row.get(0), row.get(1), row.get(2), row.get(3));
            }
            case ErrorResponse.TYPE -> checkError = ErrorResponse.decode(run.slice(at, 1 + run.getInt(at + 1))).message();
            case ReadyForQuery.TYPE -> checked();
            default -> { } // ParseComplete, BindComplete, CommandComplete, CloseComplete, notices
        }
    }

    private void checked() {
        if (checkError != null || !carried.carriable()) {
            if (checkError != null) {
                log.warn("server connection {} of {}: the state check failed ({}); not recycled", session.serverConnection(),
                        session.info, checkError);
            } else {
                log.debug("server connection {} of {} holds session state ({}); not recycled now",
                        session.serverConnection(), session.info, carried);
            }
            notBeforeNanos = System.nanoTime() + RECHECK_AFTER_NANOS;
            resume();
            return;
        }
        step = Step.LOGGING_IN;
        login = new ServerLogin(relogin.orElseThrow());
        session.services.shared().connector().connect(session.client.eventLoop(), session.target, new LoginHandler(),
                session.services.limits().connectTimeout()).addListener(connected -> {
                    if (!connected.isSuccess()) {
                        loginFailed(ConnectFailure.of(connected.cause(), session.target).cause());
                        return;
                    }
                    Channel channel = (Channel) connected.getNow();
                    if (step != Step.LOGGING_IN || session.state != PgSession.State.RECYCLING) {
                        channel.close();
                        return;
                    }
                    fresh = channel;
                    ByteBuf out = channel.alloc().buffer();
                    startup.encode(out);
                    channel.writeAndFlush(out, channel.voidPromise());
                    channel.read();
                });
    }

    /** A message of the new connection's login. */
    private void loginFrame(ByteBuf frame) {
        try {
            switch (frame.getByte(frame.readerIndex())) {
                case Authentication.TYPE -> login.answer(Authentication.decode(frame)).ifPresent(answer -> {
                    ByteBuf out = fresh.alloc().buffer();
                    answer.encode(out);
                    fresh.writeAndFlush(out, fresh.voidPromise());
                });
                case BackendKeyData.TYPE -> freshKey = BackendKeyData.decode(frame);
                case ErrorResponse.TYPE -> {
                    String message = ErrorResponse.decode(frame).message();
                    if (step == Step.RESTORING) {
                        restoreError = message; // the server skips to the Sync; its ReadyForQuery follows
                    } else {
                        loginFailed("the server said: " + message);
                    }
                }
                case ReadyForQuery.TYPE -> {
                    if (step == Step.LOGGING_IN && !carried.isEmpty()) {
                        restore();
                    } else if (step == Step.RESTORING && restoreError != null) {
                        loginFailed("the session's settings or statements could not be restored: " + restoreError);
                    } else {
                        loggedInAgain();
                    }
                }
                // ParameterStatus and notices: the client saw them at its own login; the restore's rows.
                default -> { }
            }
        } catch (ServerLogin.LoginException e) {
            loginFailed(e.getMessage());
        } catch (RuntimeException e) {
            loginFailed("the server's login message could not be read: " + e);
        } finally {
            frame.release();
        }
    }

    /** The session's own settings and statements, as the check found them, before the new connection serves it. */
    private void restore() {
        step = Step.RESTORING;
        restoreError = null;
        ByteBuf out = fresh.alloc().buffer();
        carried.encodeRestore(out);
        fresh.writeAndFlush(out, fresh.voidPromise());
    }

    private void loggedInAgain() {
        if (freshKey == null) {
            loginFailed("the server sent no BackendKeyData");
            return;
        }
        Channel old = session.backend();
        long oldPid = session.serverConnection();
        Channel channel = fresh;
        fresh = null;
        step = Step.IDLE;
        // The new connection first: closing the old one may complete at once, and its close must find
        // it no longer the session's. Nothing the old one still sends reaches the client.
        session.serverReplaced(channel, freshKey);
        old.pipeline().remove(BackendConnector.HANDLER);
        ByteBuf bye = old.alloc().buffer(5);
        Terminate.INSTANCE.encode(bye);
        old.writeAndFlush(bye).addListener(ChannelFutureListener.CLOSE);
        session.server.hook().serverConnectionClosed(oldPid);
        session.services.shared().recycles().recycled();
        recycled++;
        log.info("recycled server connection of {}: process {} kept {} MB; now process {}", session.info, oldPid,
                retainedWhenStarted >> 20, freshKey.processId());
        freshKey = null;
        resume();
    }

    private void loginFailed(String why) {
        if (step != Step.LOGGING_IN && step != Step.RESTORING) {
            return;
        }
        log.warn("could not log {} in again to replace server connection {}: {}; keeping it, and not trying again",
                session.info, session.serverConnection(), why);
        session.services.shared().recycles().loginFailed();
        relogin = Optional.empty();
        whyNot = "an earlier login failed: " + why;
        toldWhyNot = true;
        if (fresh != null) {
            fresh.close();
            fresh = null;
        }
        freshKey = null;
        resume();
    }

    private void resume() {
        step = Step.IDLE;
        if (session.state == PgSession.State.RECYCLING) {
            session.recyclingEnded();
        }
    }

    /** How often this session's server connection was replaced. */
    int recycled() {
        return recycled;
    }

    /** For SHOW SERVERS: how the proxy would log in again, or why it cannot. */
    String reloginDescription() {
        if (!config.enabled()) {
            return "off";
        }
        if (startup == null) {
            return "none: " + whyNot;
        }
        return relogin.map(Relogin::method).orElse("none: " + whyNot);
    }

    /** The session closed: a login in progress is abandoned. */
    void closed() {
        step = Step.IDLE;
        attempt++;
        if (fresh != null) {
            fresh.close();
            fresh = null;
        }
    }

    /** The new connection's pipeline end during its login; replaced by a {@link BackendHandler} after it. */
    private final class LoginHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (ctx.channel() != fresh) {
                ReferenceCountUtil.release(msg);
                return;
            }
            loginFrame((ByteBuf) msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (ctx.channel() == fresh) {
                ctx.channel().read();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (ctx.channel() == fresh) {
                loginFailed("the server closed the connection");
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (ctx.channel() == fresh) {
                loginFailed(ConnectFailure.plainMessage(cause));
            }
            ctx.close();
        }
    }
}
