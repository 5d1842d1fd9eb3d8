package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.postgres.PlannerSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One estimator shared by many threads (as the proxy's event loops share it) gives every thread the
 * answer a fresh estimator gives, from either cache or computed.
 */
class ConcurrentEstimateTest {

    @Test
    void sharedEstimatorAnswersLikeAFreshOne() throws Exception {
        List<String> statements = new ArrayList<>();
        for (int n = 2; n <= 9; n++) {
            statements.add(Shapes.chain(n));
            statements.add(Shapes.star(n));
            statements.add(Shapes.cycle(n));
        }
        statements.add("SELECT * FROM a WHERE EXISTS (SELECT 1 FROM b, c WHERE b.x = a.x AND c.y = b.y)");
        statements.add("UPDATE a SET y = 1 FROM b WHERE a.x = b.x");
        statements.add("SELECT * FROM a, b WHERE a.j->>'k' = b.y");
        List<CompileEstimate> expected = new ArrayList<>();
        for (String sql : statements) {
            expected.add(new CompileEstimator().estimate(sql, PlannerSettings.DEFAULTS));
        }
        CompileEstimator shared = new CompileEstimator();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int thread = 0; thread < 8; thread++) {
                int offset = thread;
                results.add(pool.submit(() -> {
                    for (int round = 0; round < 5; round++) {
                        for (int k = 0; k < statements.size(); k++) {
                            int i = (k + offset) % statements.size();
                            // The same text (the cache of texts) and new texts of the same statement (a comment
                            // changes the text, not the fingerprint: the fingerprint cache), from every thread.
                            String text = round % 2 == 0 ? statements.get(i)
                                    : statements.get(i) + " -- thread " + offset + ", round " + round;
                            if (!shared.estimate(text, PlannerSettings.DEFAULTS).equals(expected.get(i))) {
                                return false;
                            }
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get(60, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
