package io.memogate.proxy.pg.session;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.FunctionDefinitions;
import io.memogate.estimator.RoutineDefinitions;
import io.memogate.estimator.ViewDefinitions;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.admission.AdmissionSupport;
import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.RecycleConfig;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.frontend.FrontendMessage;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.session.RecycleCounts;
import io.memogate.proxy.session.SessionListener;
import io.memogate.proxy.session.TrackedSession;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A session logged in (READY, the server's transaction status idle) between two {@link EmbeddedChannel}s: the
 * client's, whose event loop runs only when a test says so ({@link #runLoop}), and the server's, which keeps
 * what the session sent it. Long texts are read when the test says so too ({@link #runTextReads}), on the test's
 * thread: everything runs on one thread, in the order the test gives. A test that keeps a reference to a frame it
 * sends (retained) sees whether the session released its own.
 */
final class EmbeddedSession implements AutoCloseable {

    final EmbeddedChannel client = new EmbeddedChannel();
    final EmbeddedChannel server = new EmbeddedChannel();
    final PgSession session;
    private final Queue<Runnable> textReads = new ArrayDeque<>();
    private Catalog catalog;

    EmbeddedSession(AdmissionHook hook) {
        this(hook, () -> RoutineDefinitions.NONE);
    }

    /** @param routines the routines of the session's database as its catalog was last read, at each ask */
    EmbeddedSession(AdmissionHook hook, Supplier<RoutineDefinitions> routines) {
        AdmissionSupport defaults = PostgresServer.defaultSupport();
        AdmissionSupport support = new AdmissionSupport(defaults.serverDefaults(), defaults.loginSettings(),
                database -> catalogWith(routines.get()), defaults.waitNotice(), defaults.analyzer(), textReads::add);
        // No routing, connector or cancels: the session is logged in already and never connects.
        SessionServices services = new SessionServices(database -> Optional.empty(),
                AdmissionRouting.uniform(hook, support), Optional.empty(),
                new LimitsConfig(1 << 26, Duration.ofSeconds(5), Duration.ofSeconds(5), 10, Duration.ofSeconds(5)),
                Optional.empty(), Optional.empty(), RecycleConfig.DEFAULTS,
                new PgShared(null, null, null, new RecycleCounts(), new PasswordlessLogins()),
                new SessionListener() {
                    @Override
                    public boolean opened(TrackedSession opened) {
                        return true;
                    }

                    @Override
                    public void closed(TrackedSession closed) {
                    }
                });
        session = new PgSession(client, services);
        session.identified(new SessionInfo("u", "demo", "test", null));
        session.server = services.admission().forServer("main");
        session.settings.startupParameters(Map.of("user", "u", "database", "demo"));
        session.connectedTo(server);
        session.state = PgSession.State.READY;
    }

    /**
     * The catalog of {@code routines}: the same one while they are, as the proxy's catalogs keep the last read
     * (a new one at each ask would be an allocation per statement the proxy does not make).
     */
    private Catalog catalogWith(RoutineDefinitions routines) {
        if (catalog == null || catalog.routines() != routines) {
            catalog = new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.NONE, routines);
        }
        return catalog;
    }

    /** A client message as the frame decoder hands it on. */
    static ByteBuf frame(FrontendMessage message) {
        ByteBuf frame = Unpooled.buffer();
        message.encode(frame);
        return frame;
    }

    /** {@code frame} from the client, as the client handler passes it on: the session's to release. */
    void send(ByteBuf frame) {
        session.clientFrame(frame);
    }

    /** The client's read is over: what the session forwarded goes out, as at the end of each socket read. */
    void clientReadComplete() {
        session.clientReadComplete();
    }

    /**
     * A run of the server's messages as the server leg's framer hands it on, for a session that rewrites none of
     * them (no refused statement's): each shown to the session in place, the run relayed to the client, the read
     * over.
     */
    void answer(ByteBuf run) {
        for (int at = run.readerIndex(); at < run.writerIndex(); at += 1 + run.getInt(at + 1)) {
            if (session.responses.message(run.getByte(at), run, at, run.getInt(at + 1)) != null) {
                throw new IllegalStateException("the session rewrote a server message: not for this helper");
            }
        }
        session.backendRead(run);
        session.backendReadComplete();
    }

    /** Runs what is queued on the session's event loop (answers from other threads). */
    void runLoop() {
        client.runPendingTasks();
    }

    /** Reads the long texts sent to be read off the event loop; their answers then wait for {@link #runLoop}. */
    int runTextReads() {
        int reads = 0;
        for (Runnable read = textReads.poll(); read != null; read = textReads.poll()) {
            read.run();
            reads++;
        }
        return reads;
    }

    /** The message types the server was sent, flushed or not, in order. */
    List<Character> toServer() {
        List<Character> types = new ArrayList<>();
        eachMessage(server, message -> types.add((char) message.getByte(message.readerIndex())));
        return types;
    }

    /** The errors the client was sent, in order. */
    List<ErrorResponse> errorsToClient() {
        List<ErrorResponse> errors = new ArrayList<>();
        eachMessage(client, message -> {
            if (message.getByte(message.readerIndex()) == ErrorResponse.TYPE) {
                errors.add(ErrorResponse.decode(message));
            }
        });
        return errors;
    }

    /** Each message written to {@code channel} (a buffer may hold several), then the buffers released. */
    private static void eachMessage(EmbeddedChannel channel, Consumer<ByteBuf> each) {
        channel.flush();
        for (ByteBuf out = channel.readOutbound(); out != null; out = channel.readOutbound()) {
            for (int at = out.readerIndex(); at < out.writerIndex(); at += 1 + out.getInt(at + 1)) {
                each.accept(out.slice(at, 1 + out.getInt(at + 1)));
            }
            out.release();
        }
    }

    @Override
    public void close() {
        toServer();
        errorsToClient();
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
    }
}
