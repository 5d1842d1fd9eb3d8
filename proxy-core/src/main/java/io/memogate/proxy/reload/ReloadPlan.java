package io.memogate.proxy.reload;

import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.config.AdmissionConfig;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.ConfigSettings;
import io.memogate.proxy.config.ConfigSettings.Applies;
import io.memogate.proxy.config.ConfigSettings.Setting;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.MonitorConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a reload makes of a new file: the configuration to put in force, and the list of what changed.
 *
 * <p>The configuration in force takes from the file everything a running proxy can take (see
 * {@link Applies}) and keeps the running values of the rest: the sockets it listens on, the HTTP endpoint,
 * whether there are gateways at all, the broker, the network transport, the fleet. A listener's TLS can change for new sessions only while
 * the listeners keep their addresses; a listener added, removed or moved needs a restart, and then the
 * running listeners stay as they are, TLS included.
 *
 * @param next the configuration to put in force
 * @param changes every setting whose value differs between the running configuration and the file, in
 *     the file's order, each saying whether it was applied
 */
record ReloadPlan(MemogateConfig next, List<ConfigChange> changes) {

    /**
     * @throws io.memogate.proxy.config.ConfigException when the file's settings cannot be combined with
     *     those that stay until a restart (e.g. the running broker watches a backend the file removes)
     */
    static ReloadPlan between(MemogateConfig running, MemogateConfig file) {
        checkMonitoredBackendStays(running, file);
        boolean sameSockets = addresses(running.listeners()).equals(addresses(file.listeners()));
        AdminConfig admin = new AdminConfig(running.admin().http(), file.admin().users(), file.admin().authDatabase(),
                running.admin().watchInterval());
        // Whether there are gateways at all waits for a restart; the rest of the section is read live.
        AdmissionConfig admission = file.admission().withEnabled(running.admission().enabled());
        MemogateConfig next = new MemogateConfig(sameSockets ? file.listeners() : running.listeners(),
                file.backends(), file.limits(), admin, admission, running.broker(), file.estimator(), file.recycle(),
                running.network(), running.fleet());
        return new ReloadPlan(next, changes(running, file, sameSockets));
    }

    /**
     * The running broker keeps the backend it was started with (broker.* changes need a restart), so the
     * file's backends must still hold it. Checked here in those terms: the configuration in force would
     * otherwise fail validation with "broker.monitor.backend must name a configured backend (primary), was
     * 'main'", quoting the running value as if the file, which may well say 'primary', had written it.
     */
    private static void checkMonitoredBackendStays(MemogateConfig running, MemogateConfig file) {
        running.broker().monitor().ifPresent(monitor -> {
            Optional<String> monitored = monitor.backend();
            if (monitored.isPresent() && file.backends().stream().noneMatch(b -> b.name().equals(monitored.get()))) {
                String fileSays = file.broker().monitor().flatMap(MonitorConfig::backend)
                        .filter(name -> !name.equals(monitored.get()))
                        .map(name -> " (it names '" + name + "', which the broker monitors after the restart)")
                        .orElse("");
                throw refused("the running broker still monitors backend '" + monitored.get() + "', which the new "
                        + "file no longer has" + fileSays, "that backend");
            }
        });
    }

    private static ConfigException refused(String why, String keep) {
        return new ConfigException(null, List.of("broker.monitor.backend: " + why + "; broker.monitor.backend "
                + "changes take effect at restart, so keep " + keep + " in the file until the proxy restarts"));
    }

    private static List<ConfigChange> changes(MemogateConfig running, MemogateConfig file, boolean sameSockets) {
        Map<String, Setting> before = byKey(running);
        Map<String, Setting> after = byKey(file);
        Set<String> keys = new LinkedHashSet<>(after.keySet());
        keys.addAll(before.keySet()); // settings that are gone, e.g. a backend removed, come last
        List<ConfigChange> changes = new ArrayList<>();
        for (String key : keys) {
            Setting old = before.get(key);
            Setting now = after.get(key);
            String oldValue = old == null ? "" : old.value();
            String newValue = now == null ? "" : now.value();
            if (oldValue.equals(newValue)) {
                continue;
            }
            Applies applies = (now != null ? now : old).applies();
            boolean applied = applies != Applies.RESTART && (sameSockets || !key.startsWith("listeners["));
            changes.add(new ConfigChange(key, oldValue, newValue, applied ? applies : Applies.RESTART, applied));
        }
        return changes;
    }

    private static Map<String, Setting> byKey(MemogateConfig config) {
        Map<String, Setting> settings = new LinkedHashMap<>();
        for (Setting setting : ConfigSettings.of(config)) {
            settings.put(setting.key(), setting);
        }
        return settings;
    }

    private static List<String> addresses(List<ListenerConfig> listeners) {
        return listeners.stream().map(ListenerConfig::socket).toList();
    }
}
