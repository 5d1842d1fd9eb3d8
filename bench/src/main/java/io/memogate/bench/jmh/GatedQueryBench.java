package io.memogate.bench.jmh;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmissionPoint;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.admission.StatementRequest;
import io.memogate.proxy.pg.admission.PreparedQueries;
import io.memogate.proxy.pg.admission.SentText;
import io.memogate.proxy.pg.admission.SessionSettings;
import io.memogate.proxy.pg.message.frontend.Query;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.session.StatementAdmission;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a gated simple Query costs the session's event loop beyond an ungated one, step by step as
 * {@code AdmissionFlow} takes it: the text read out of the frame, read for what it changes in the session
 * ({@link SentText}), the request, and the hook of the passthrough benchmark's memogate-gated target (estimate:
 * the cache of texts, the skeleton key, the cache of skeletons; the bypass test; the statement records), and the
 * decision taken at once. pgbench -S's statement with a new {@code aid} each time, as simple mode sends it;
 * {@link #estimateOnly} is the estimator's part alone, {@link #readOnly} the session's reading alone. Run with
 * {@code -prof gc} for the bytes each makes: {@code bin/memogate bench jmh GatedQueryBench -f 1 -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GatedQueryBench {

    /** Distinct frames sent in turn: more than the JIT could fold, few enough to stay in the CPU's caches. */
    private static final int FRAMES = 4096;

    private AdmissionControl control;
    private AdmissionHook hook;
    private LexicalAnalyzer analyzer;
    private SessionSettings settings;
    private PreparedQueries prepared;
    private SessionInfo session;
    private ByteBuf[] frames;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND,
                GatewaySettings.defaults(Runtime.getRuntime().availableProcessors())).staticTargetBytes(256L << 20)
                .build();
        hook = control.hook();
        analyzer = control.support().analyzer();
        settings = new SessionSettings(() -> PlannerSettings.DEFAULTS, analyzer);
        prepared = new PreparedQueries(analyzer);
        session = new SessionInfo("bench", "bench", "pgbench", new InetSocketAddress("127.0.0.1", 40000));
        frames = new ByteBuf[FRAMES];
        for (int i = 0; i < FRAMES; i++) {
            frames[i] = Unpooled.buffer();
            new Query("SELECT abalance FROM pgbench_accounts WHERE aid = " + (i * 241 + 1) + ";").encode(frames[i]);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        for (ByteBuf frame : frames) {
            frame.release();
        }
        control.close();
    }

    private ByteBuf nextFrame() {
        next = (next + 1) & (FRAMES - 1);
        return frames[next];
    }

    /** The whole per-statement path of a gated simple Query that is let through at once. */
    @Benchmark
    public AdmittedStatement gatedQuery() {
        String sql = Query.sql(nextFrame());
        SentText changes = SentText.readIfChanging(sql, analyzer, settings.routines());
        if (changes != null) {
            changes.applyTo(settings, prepared, false);
        }
        StatementRequest request = new StatementRequest(sql, AdmissionPoint.STATEMENT_TEXT, session, 4242L,
                settings.current(), prepared);
        Admission admission = hook.admit(request);
        return StatementAdmission.admittedAtOnce(admission);
    }

    /** The text read out of the frame and for what it changes in the session, no admission. */
    @Benchmark
    public Object readOnly() {
        String sql = Query.sql(nextFrame());
        SentText changes = SentText.readIfChanging(sql, analyzer, settings.routines());
        return changes == null ? sql : changes;
    }

    /** The hook alone, for a text already read (its String made outside the measured call's share). */
    @Benchmark
    public Admission estimateOnly() {
        return hook.admit(new StatementRequest(Query.sql(nextFrame()), AdmissionPoint.STATEMENT_TEXT, session, 4242L,
                settings.current(), prepared));
    }
}
