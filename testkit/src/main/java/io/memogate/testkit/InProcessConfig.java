package io.memogate.testkit;

import io.memogate.broker.BrokerSettings;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.config.AdmissionConfig;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BrokerConfig;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.MonitorConfig;
import java.time.Duration;
import java.util.List;

/** The configuration of a proxy started inside the test JVM: every port free, on the loopback address only. */
final class InProcessConfig {

    /** The one backend's name, as the console's rows and the records name it. */
    static final String BACKEND = "target";
    static final String HOST = "127.0.0.1";
    /** Sessions still open when the test class ends are its own leftovers: no reason to wait for them long. */
    private static final Duration SHUTDOWN = Duration.ofSeconds(1);
    /** The database host's processors, which only the tier limits' defaults follow: the settings name them all. */
    private static final int CPUS = 2;

    private InProcessConfig() {
    }

    static MemogateConfig of(TargetDatabase target, MemogateSettings settings) {
        BrokerConfig defaults = BrokerConfig.DEFAULTS;
        BrokerConfig broker = new BrokerConfig(
                settings.monitor().map(m -> MonitorConfig.of(m.user()).withPassword(m.password())),
                defaults.interval(), defaults.gracePeriod(), defaults.compileShare(), defaults.hostMemoryBytes(),
                defaults.coLocated(), settings.targetBytes(),
                Math.min(settings.targetBytes(), BrokerSettings.DEFAULT_MINIMUM_TARGET_BYTES));
        return new MemogateConfig(List.of(ListenerConfig.of(HOST, 0)),
                List.of(BackendConfig.of(BACKEND, target.host(), target.port())),
                LimitsConfig.DEFAULTS.withShutdownTimeout(SHUTDOWN),
                new AdminConfig(AdminHttpConfig.of(HOST, 0)).withUsers(settings.consoleUsers().toArray(String[]::new)),
                AdmissionConfig.defaults(CPUS).withGatewaySettings(settings.gateways())
                        .withStatementRecords(settings.statementRecords()),
                broker);
    }

}
