package io.memogate.proxy.config;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A number of bytes, written in the configuration as PostgreSQL writes memory settings: a whole number
 * with an optional unit, {@code 1048576}, {@code 64MiB}, {@code 16MB}. As in PostgreSQL ("Parameter
 * Names and Values", postgresql.conf) kB, MB and GB are powers of 1024, not 1000; the IEC spellings
 * KiB, MiB and GiB say the same thing unambiguously. Units are case-sensitive, as in PostgreSQL.
 * Fractions are not accepted: write 1536MiB, not 1.5GiB.
 */
public record ByteSize(long bytes) implements Comparable<ByteSize> {

    private static final long KIB = 1024;
    private static final long MIB = KIB * 1024;
    private static final long GIB = MIB * 1024;

    private static final Map<String, Long> UNITS = Map.of(
            "", 1L, // a plain number is a number of bytes
            "B", 1L,
            "kB", KIB,
            "KiB", KIB,
            "MB", MIB,
            "MiB", MIB,
            "GB", GIB,
            "GiB", GIB);

    /** Digits, optional blanks (PostgreSQL allows "64 MB"), then an optional unit made of letters. */
    private static final Pattern SYNTAX = Pattern.compile("(\\d+)\\s*([A-Za-z]*)");

    /** The sentence every parse error ends with, so a user learns the accepted forms from any mistake. */
    static final String ACCEPTED = "write a whole number of bytes, or a whole number with unit "
            + "B, kB, KiB, MB, MiB, GB or GiB (k, M and G are powers of 1024, as in PostgreSQL)";

    public ByteSize {
        if (bytes < 0) {
            throw new IllegalArgumentException("a size cannot be negative, was " + bytes);
        }
    }

    public static ByteSize ofBytes(long bytes) {
        return new ByteSize(bytes);
    }

    public static ByteSize ofKiB(long kib) {
        return new ByteSize(Math.multiplyExact(kib, KIB));
    }

    public static ByteSize ofMiB(long mib) {
        return new ByteSize(Math.multiplyExact(mib, MIB));
    }

    public static ByteSize ofGiB(long gib) {
        return new ByteSize(Math.multiplyExact(gib, GIB));
    }

    /**
     * Parses {@code 1048576}, {@code 64MiB}, {@code 16MB}, {@code 512 kB}.
     *
     * @throws IllegalArgumentException naming the text and the accepted units; the caller adds the field
     */
    public static ByteSize parse(String text) {
        Matcher m = SYNTAX.matcher(text.strip());
        Long unit = m.matches() ? UNITS.get(m.group(2)) : null;
        if (unit == null) {
            throw new IllegalArgumentException("'" + text + "' is not a size: " + ACCEPTED);
        }
        try {
            return new ByteSize(Math.multiplyExact(Long.parseLong(m.group(1)), unit));
        } catch (NumberFormatException | ArithmeticException tooManyDigits) {
            throw new IllegalArgumentException("'" + text + "' is too large a size", tooManyDigits);
        }
    }

    /** The value in the largest IEC unit that divides it exactly: "64MiB", "1536KiB", "100B". */
    @Override
    public String toString() {
        if (bytes != 0 && bytes % GIB == 0) {
            return bytes / GIB + "GiB";
        }
        if (bytes != 0 && bytes % MIB == 0) {
            return bytes / MIB + "MiB";
        }
        if (bytes != 0 && bytes % KIB == 0) {
            return bytes / KIB + "KiB";
        }
        return bytes + "B";
    }

    @Override
    public int compareTo(ByteSize other) {
        return Long.compare(bytes, other.bytes);
    }
}
