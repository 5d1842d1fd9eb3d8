package io.memogate.proxy.reload;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * SIGHUP reloads the configuration, as it does for PostgreSQL and PgBouncer.
 *
 * <p>Through {@code sun.misc.Signal} (module jdk.unsupported): the JDK has no supported API for handling a
 * signal, and this one has been stable since Java 1.3. Installing it also replaces the JVM's own SIGHUP
 * action, which would otherwise run the shutdown hooks and stop the proxy. The handler only hands the
 * reload to the configuration thread; it runs on the JVM's signal thread, which must not block.
 */
public final class HangupSignal {

    private static final Logger log = LoggerFactory.getLogger(HangupSignal.class);

    private HangupSignal() {
    }

    /** From now on SIGHUP runs {@code reloader.reload("SIGHUP")}. */
    public static void reloads(ConfigReloader reloader) {
        try {
            Signal.handle(new Signal("HUP"), signal -> reloader.reload("SIGHUP"));
        } catch (IllegalArgumentException e) {
            // The JVM was started with -Xrs, or the platform has no SIGHUP: RELOAD and the file watch remain.
            log.warn("SIGHUP cannot be handled here ({}); reload with the console's RELOAD or by editing the file",
                    e.getMessage());
        }
    }
}
