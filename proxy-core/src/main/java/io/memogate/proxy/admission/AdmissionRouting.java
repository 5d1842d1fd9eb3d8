package io.memogate.proxy.admission;

import io.memogate.estimator.lexer.LexicalAnalyzer;
import java.util.Objects;

/**
 * Which admission a session uses, by the database server (backend) it is routed to. A session asks once,
 * when its startup message has chosen the backend, and keeps the answer for its life.
 */
public interface AdmissionRouting {

    /** The admission of the backend named {@code server}; the same object for every call with one name. */
    ServerAdmission forServer(String server);

    /**
     * Whether the hooks look at statements ({@link AdmissionHook#readsStatements()}): the same for every
     * server of one proxy, and known before a session is routed.
     */
    boolean readsStatements();

    /** The lexer sessions follow their statements with before they are routed (SETs in startup options). */
    LexicalAnalyzer analyzer();

    /** One admission for every server: a proxy without per-server gateways (tests, benchmarks). */
    static AdmissionRouting uniform(AdmissionHook hook, AdmissionSupport support) {
        ServerAdmission admission = new ServerAdmission(hook, support);
        return new AdmissionRouting() {
            @Override
            public ServerAdmission forServer(String server) {
                Objects.requireNonNull(server, "server");
                return admission;
            }

            @Override
            public boolean readsStatements() {
                return hook.readsStatements();
            }

            @Override
            public LexicalAnalyzer analyzer() {
                return support.analyzer();
            }
        };
    }
}
