package io.memogate.broker.probe.postgres;

import java.util.Map;

/** The pg_settings values one poll reads; see {@link io.memogate.broker.probe.MemorySnapshot} for each. */
record ServerSettings(int serverVersionNum, long sharedBuffersBytes, long workMemBytes, double hashMemMultiplier,
                      int maxConnections, Map<String, String> plannerSettings) {

    ServerSettings {
        plannerSettings = Map.copyOf(plannerSettings);
    }
}
