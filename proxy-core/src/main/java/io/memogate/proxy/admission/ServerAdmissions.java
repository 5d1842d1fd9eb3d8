package io.memogate.proxy.admission;

import io.memogate.estimator.lexer.LexicalAnalyzer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The admission of every database server behind the proxy: one {@link AdmissionControl} (gateways, byte
 * ledger, broker, catalog reader) per backend, so that two servers never share a compile-memory target or
 * a ledger (their connection ids would collide) and a storm on one queues on its own gateways only.
 *
 * <p>The servers configured at start get theirs at once, so that their brokers poll and their meters show
 * from the start; a backend a reload adds gets its own when its first session is routed to it. A backend
 * a reload removes keeps its admission until the proxy stops, since its open sessions still use it.
 */
public final class ServerAdmissions implements AdmissionRouting, AutoCloseable {

    private final Function<String, AdmissionControl> start;
    private final LexicalAnalyzer analyzer;
    /** In the order the servers were started: the admin console's rows follow it. */
    private final Map<String, AdmissionControl> byServer = new LinkedHashMap<>();
    private boolean closed;

    /**
     * @param start builds and starts the admission of the backend named, with its meters bound; called once
     *     per name, under this object's lock
     * @param servers the backends configured now, started at once in this order
     */
    public ServerAdmissions(Function<String, AdmissionControl> start, LexicalAnalyzer analyzer, List<String> servers) {
        this.start = Objects.requireNonNull(start, "start");
        this.analyzer = Objects.requireNonNull(analyzer, "analyzer");
        try {
            servers.forEach(this::control);
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    @Override
    public ServerAdmission forServer(String server) {
        return control(server).admission();
    }

    /** The admission of {@code server}, started now if it has none yet. */
    public synchronized AdmissionControl control(String server) {
        Objects.requireNonNull(server, "server");
        if (closed) {
            throw new IllegalStateException("the proxy's admission is closed");
        }
        return byServer.computeIfAbsent(server, start);
    }

    /** The admission of {@code server} if it has one already; never starts one. */
    public synchronized Optional<AdmissionControl> find(String server) {
        return Optional.ofNullable(byServer.get(server));
    }

    /** Every server's admission, in the order they started. */
    public synchronized List<AdmissionControl> all() {
        return List.copyOf(byServer.values());
    }

    @Override
    public boolean readsStatements() {
        return true; // every server's hook is a GatedAdmission
    }

    @Override
    public LexicalAnalyzer analyzer() {
        return analyzer;
    }

    /** Stops every server's broker, catalog reads and timer; the first failure is thrown after all are closed. */
    @Override
    public void close() {
        List<AdmissionControl> controls;
        synchronized (this) {
            closed = true;
            controls = new ArrayList<>(byServer.values());
        }
        RuntimeException failure = null;
        for (AdmissionControl control : controls) {
            try {
                control.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
