package io.memogate.proxy.cli;

import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.pg.PgWing;
import io.memogate.proxy.session.ProtocolWing;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The protocol wings this build of Memogate has, by the {@code protocol} a listener names: the one place
 * outside the wings that knows them. A protocol missing here is refused at start, naming the listener.
 *
 * <p>The MySQL wing ({@code io.memogate.proxy.mysql.MySqlWing}) relays its protocol and holds statements for
 * admission, but the estimator cannot read MySQL statements yet, so its gateways would decide blind: a
 * {@code mysql} listener is refused at start with that reason ({@link #NOT_SERVED_YET}) until the MySQL
 * dialect is in. Tests start it with their own admission hooks.
 */
public final class Wings {

    /** Every wing served in production: PostgreSQL's. */
    public static final Map<Protocol, ProtocolWing.Factory> BUILT_IN = Map.of(Protocol.POSTGRESQL, PgWing.FACTORY);

    /** Wings built but not served yet, and why. */
    static final Map<Protocol, String> NOT_SERVED_YET = Map.of(Protocol.MYSQL, "Memogate's MySQL/MariaDB wing "
            + "relays the protocol, but Memogate cannot estimate MySQL statements yet (the estimator has no MySQL "
            + "dialect), so its gateways could not weigh them; mysql listeners are served once the dialect is in. "
            + "Until then, let MySQL clients connect to their server directly");

    private Wings() {
    }

    /**
     * Refuses a configuration with a listener whose wing is built but not served yet, naming each such listener.
     *
     * @param file the file the configuration came from, for the message
     */
    static void checkServed(MemogateConfig config, Optional<Path> file) {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < config.listeners().size(); i++) {
            String why = NOT_SERVED_YET.get(config.listeners().get(i).protocol());
            if (why != null) {
                problems.add("listeners[" + i + "].protocol: " + why);
            }
        }
        if (!problems.isEmpty()) {
            ConfigException refused = new ConfigException(null, problems);
            throw file.isPresent() ? refused.from(file.get()) : refused;
        }
    }
}
