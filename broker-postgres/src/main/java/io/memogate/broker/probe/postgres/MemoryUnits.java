package io.memogate.broker.probe.postgres;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Converts a memory setting from pg_settings to bytes. pg_settings gives an integer {@code setting} in
 * the parameter's base {@code unit}, which may carry a multiplier: shared_buffers is counted in "8kB"
 * blocks, work_mem in "kB", min_wal_size in "MB" (PostgreSQL 18, section 19.1.1 and the pg_settings view).
 * The units are powers of 1024, as PostgreSQL defines them.
 */
final class MemoryUnits {

    private static final Pattern UNIT = Pattern.compile("([0-9]*)(B|kB|MB|GB|TB)");

    private MemoryUnits() {
    }

    /**
     * {@code setting} x {@code unit} in bytes.
     *
     * @throws IllegalArgumentException when the setting is not an integer or the unit not a memory unit
     */
    static long bytes(String setting, String unit) {
        if (unit == null) {
            throw new IllegalArgumentException("has no unit; expected a memory unit such as 8kB");
        }
        Matcher matcher = UNIT.matcher(unit.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("unit '" + unit + "' is not a memory unit");
        }
        long count = matcher.group(1).isEmpty() ? 1 : Long.parseLong(matcher.group(1));
        long unitBytes = switch (matcher.group(2)) {
            case "B" -> 1L;
            case "kB" -> 1L << 10;
            case "MB" -> 1L << 20;
            case "GB" -> 1L << 30;
            default -> 1L << 40;
        };
        long value;
        try {
            value = Long.parseLong(setting.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("value '" + setting + "' is not an integer", e);
        }
        if (value < 0) {
            // -1 means "derived from another setting" (e.g. autovacuum_work_mem); not a size.
            throw new IllegalArgumentException("value " + value + " is not a size");
        }
        try {
            return Math.multiplyExact(value, Math.multiplyExact(count, unitBytes));
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("value " + value + " x " + unit + " overflows a long", e);
        }
    }
}
