package io.memogate.proxy.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The checks behind {@code GET /health}, combined: UP when all are UP, details merged in the order the
 * checks were added (a later check's key replaces an earlier one's). Checks are added while the proxy
 * starts and read at every request, hence the copy-on-write list.
 */
final class HealthChecks implements HealthCheck {

    private final List<HealthCheck> checks = new CopyOnWriteArrayList<>();

    void add(HealthCheck check) {
        checks.add(check);
    }

    @Override
    public Health check() {
        boolean up = true;
        Map<String, String> details = new LinkedHashMap<>();
        for (HealthCheck check : checks) {
            Health health = check.check();
            up &= health.up();
            details.putAll(health.details());
        }
        return new Health(up, details);
    }
}
