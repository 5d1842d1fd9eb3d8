package io.memogate.proxy.reload;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGHUP reloads the configuration, as it does for PostgreSQL and PgBouncer.
 *
 * <p>Through {@code sun.misc.Signal} (module jdk.unsupported): the JDK has no supported API for handling a
 * signal, and this one has been stable since Java 1.3 and is not deprecated (checked on JDK 25, which
 * prints no warning for it; javac does warn that it is internal API). Installing it also replaces the
 * JVM's own SIGHUP action, which would otherwise run the shutdown hooks and stop the proxy. The handler
 * only hands the reload to the configuration thread; it runs on the JVM's signal thread, which must not
 * block.
 *
 * <p>Where SIGHUP cannot be had, the proxy runs on without it and says so in one line: a JVM started with
 * -Xrs; a runtime image built without jdk.unsupported (jlink), where the class is missing; and a process
 * started with SIGHUP ignored, as {@code nohup} starts it, for which the JVM keeps the signal ignored
 * and installs no handler ({@code bin/memogate run} restores SIGHUP's default action before it starts
 * the JVM, so that it reloads under nohup too, as PostgreSQL and PgBouncer do). The console's RELOAD and
 * the file watch reload as before.
 */
public final class HangupSignal {

    private static final Logger log = LoggerFactory.getLogger(HangupSignal.class);

    private static final String OTHER_WAYS = "reload with the console's RELOAD or by editing the file";

    private HangupSignal() {
    }

    /** From now on SIGHUP runs {@code reloader.reload("SIGHUP")}, where the JVM allows it. */
    public static void reloads(ConfigReloader reloader) {
        try {
            if (!Handler.install(reloader)) {
                log.warn("SIGHUP cannot be handled: this process was started with SIGHUP ignored (as nohup does),"
                        + " and the JVM keeps it so; {} (bin/memogate run restores SIGHUP before it starts Java)",
                        OTHER_WAYS);
            }
        } catch (NoClassDefFoundError e) {
            log.warn("SIGHUP cannot be handled: this Java runtime has no module jdk.unsupported (sun.misc.Signal); {}",
                    OTHER_WAYS);
        } catch (IllegalArgumentException e) {
            // The JVM was started with -Xrs, or the platform has no SIGHUP.
            log.warn("SIGHUP cannot be handled here ({}); {}", e.getMessage(), OTHER_WAYS);
        }
    }

    /**
     * The only code that names sun.misc: a class of its own, so that a runtime without it fails when
     * this is first used, inside {@link #reloads}, not when HangupSignal is loaded.
     */
    private static final class Handler {

        /** False when the JVM left SIGHUP ignored: it says so by returning SIG_IGN and installing nothing. */
        static boolean install(ConfigReloader reloader) {
            return Signal.handle(new Signal("HUP"), signal -> reloader.reload("SIGHUP")) != SignalHandler.SIG_IGN;
        }
    }
}
