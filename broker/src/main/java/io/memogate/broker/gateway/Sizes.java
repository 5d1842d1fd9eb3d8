package io.memogate.broker.gateway;

import java.util.Locale;

/** Human-readable figures for messages, in PostgreSQL's own style (pg_size_pretty, 1 kB = 1024 bytes). */
public final class Sizes {

    private static final String[] UNITS = {"kB", "MB", "GB", "TB", "PB"};

    private Sizes() {
    }

    /** "612 MB": like pg_size_pretty, a unit is kept while the figure is below 10240 of it. */
    public static String bytes(long bytes) {
        if (Math.abs(bytes) < 10 * 1024) {
            return bytes + " bytes";
        }
        double value = bytes;
        int unit = -1;
        do {
            value /= 1024;
            unit++;
        } while (Math.abs(value) >= 10 * 1024 && unit < UNITS.length - 1);
        return Math.round(value) + " " + UNITS[unit];
    }

    /** "300.0 s". */
    public static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }
}
