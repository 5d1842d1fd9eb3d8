package io.memogate.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.memogate.broker.BrokerSettings;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The configuration file of Memogate's image, written from {@link MemogateSettings} for a database container on
 * the same network: listening on every interface inside the container, its one backend the database, the broker
 * watching it with the database container's own role, which the admin console also admits (the container reads
 * its statement records there, {@link MemogateContainer#statements()}), and as many statement records kept as
 * the settings say. Sizes in bytes and durations in milliseconds, which the file accepts as they are.
 */
final class ContainerConfig {

    static final String PATH = "/etc/memogate/memogate.yaml";

    private ContainerConfig() {
    }

    /**
     * @param host the database's name on the network
     * @param port the database's port inside the network
     * @param user the database container's role: the broker's monitor unless the settings name one, and a console
     *     user beside those the settings name
     */
    static String yaml(MemogateSettings settings, String host, int port, String user, String password) {
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("listeners", List.of(Map.of("host", "0.0.0.0", "port", MemogateContainer.PORT)));
        file.put("backends", List.of(ordered("name", InProcessConfig.BACKEND, "host", host, "port", port,
                "tls", Map.of("mode", "prefer"))));
        Set<String> consoleUsers = new LinkedHashSet<>(settings.consoleUsers());
        consoleUsers.add(user);
        file.put("admin", ordered("http", ordered("host", "0.0.0.0", "port", MemogateContainer.ADMIN_HTTP_PORT),
                "users", consoleUsers));
        file.put("admission", admission(settings.gateways(), settings.statementRecords()));
        String monitorUser = settings.monitor().map(MemogateSettings.Credentials::user).orElse(user);
        String monitorPassword = settings.monitor().map(MemogateSettings.Credentials::password).orElse(password);
        file.put("broker", ordered("monitor", ordered("user", monitorUser, "password", monitorPassword),
                "staticTarget", settings.targetBytes(),
                "minimumTarget", Math.min(settings.targetBytes(), BrokerSettings.DEFAULT_MINIMUM_TARGET_BYTES)));
        try {
            return new ObjectMapper(new YAMLFactory()).writeValueAsString(file);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write Memogate's configuration file", e);
        }
    }

    private static Map<String, Object> admission(GatewaySettings gateways, int statementRecords) {
        Map<String, Object> tiers = new LinkedHashMap<>();
        for (Tier tier : Tier.values()) {
            TierSettings settings = gateways.tier(tier);
            Map<String, Object> values = ordered("limit", settings.limit(), "maxQueue", settings.maxQueue(),
                    "timeout", settings.timeout().toMillis() + "ms");
            if (tier != Tier.LARGE) {
                values.put("fraction", settings.fraction()); // LARGE has none: nothing is acquired after it
            }
            tiers.put(tier.configName(), values);
        }
        return ordered("staticThreshold", gateways.staticThresholdBytes(), "statementRecords", statementRecords,
                "tiers", tiers);
    }

    /** A map that keeps the order its keys are written in: the file reads like the documentation's example. */
    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
