package io.memogate.proxy.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes durations the way PostgreSQL's time settings are written ("Parameter Names and
 * Values": ms, s, min, h, d; case-sensitive): {@code 500ms}, {@code 5s}, {@code 2min}, {@code 1h}. A plain
 * number is milliseconds, as it is for PostgreSQL's statement_timeout. Fractions are not accepted: write
 * 1500ms, not 1.5s.
 */
public final class Durations {

    private static final Map<String, Duration> UNITS = Map.of(
            "", Duration.ofMillis(1),
            "ms", Duration.ofMillis(1),
            "s", Duration.ofSeconds(1),
            "min", Duration.ofMinutes(1),
            "h", Duration.ofHours(1),
            "d", Duration.ofDays(1));

    private static final Pattern SYNTAX = Pattern.compile("(\\d+)\\s*([A-Za-z]*)");

    /** The sentence every parse error ends with. */
    static final String ACCEPTED = "write a whole number with unit ms, s, min, h or d "
            + "(e.g. 500ms, 5s, 2min), or a plain number of milliseconds";

    private Durations() {
    }

    /**
     * Parses {@code 500ms}, {@code 5s}, {@code 2min}, {@code 1h}, {@code 1d}, {@code 5000}.
     *
     * @throws IllegalArgumentException naming the text and the accepted units; the caller adds the field
     */
    public static Duration parse(String text) {
        Matcher m = SYNTAX.matcher(text.strip());
        Duration unit = m.matches() ? UNITS.get(m.group(2)) : null;
        if (unit == null) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: " + ACCEPTED);
        }
        try {
            return unit.multipliedBy(Long.parseLong(m.group(1)));
        } catch (NumberFormatException | ArithmeticException tooManyDigits) {
            throw new IllegalArgumentException("'" + text + "' is too long a duration", tooManyDigits);
        }
    }

    /**
     * Whether {@code text} is a number without a unit, which {@link #parse} reads as milliseconds: a
     * refused one may have been meant as seconds, as PostgreSQL reads tcp_keepalives_idle and PgBouncer
     * tcp_keepidle, and the message says how to write that.
     */
    static boolean isPlainNumber(String text) {
        Matcher m = SYNTAX.matcher(text.strip());
        return m.matches() && m.group(2).isEmpty();
    }

    /**
     * Writes {@code d} in the largest unit that divides it exactly ("30s", "2min", "1500ms"), so that
     * {@code parse(format(d))} gives {@code d} back for any positive whole number of milliseconds. Used
     * in messages, so it never throws: sub-millisecond parts, which a file cannot express, are written
     * as a fraction of ms.
     */
    public static String format(Duration d) {
        if (d.getNano() == 0) {
            long seconds = d.getSeconds();
            if (seconds == 0) {
                return "0s";
            }
            for (String unit : new String[] {"d", "h", "min"}) {
                long size = UNITS.get(unit).getSeconds();
                if (seconds % size == 0) {
                    return seconds / size + unit;
                }
            }
            return seconds + "s";
        }
        BigDecimal ms = BigDecimal.valueOf(d.getSeconds()).scaleByPowerOfTen(3)
                .add(BigDecimal.valueOf(d.getNano(), 6));
        return ms.stripTrailingZeros().toPlainString() + "ms";
    }
}
