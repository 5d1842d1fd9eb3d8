package io.memogate.proxy.cli;

import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.pg.PgWing;
import io.memogate.proxy.session.ProtocolWing;
import java.util.Map;

/**
 * The protocol wings this build of Memogate has, by the {@code protocol} a listener names: the one place
 * outside the wings that knows them. A protocol missing here is refused at start, naming the listener.
 */
public final class Wings {

    /** Every wing built in: PostgreSQL's. */
    public static final Map<Protocol, ProtocolWing.Factory> BUILT_IN = Map.of(Protocol.POSTGRESQL, PgWing.FACTORY);

    private Wings() {
    }
}
