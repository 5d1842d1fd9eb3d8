package io.memogate.bench.pgbench;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads pgbench's summary. The TPS line changed across versions (pgbench.c, printResults):
 * <pre>
 * 14+     tps = 20577.123456 (without initial connection time)
 * <= 13   tps = 20001.000000 (including connections establishing)
 *         tps = 20577.123456 (excluding connections establishing)
 * </pre>
 * The figure that leaves connection set-up out is preferred: the proxies under test differ most in how
 * they connect (PgBouncer pools, the others dial the server), and this benchmark is about the relay.
 * pgbench 15+ also counts failed transactions (with retries, section "Failures and Serialization/Deadlock
 * Retries"); a non-zero count, a non-zero exit status or a missing figure make the run a failure.
 */
public final class PgbenchOutput {

    private static final Pattern TPS = Pattern.compile(
            "^tps = ([0-9]+(?:\\.[0-9]+)?) \\(([^)]*)\\)\\s*$", Pattern.MULTILINE);
    private static final Pattern FAILED = Pattern.compile(
            "^number of failed transactions: ([0-9]+)", Pattern.MULTILINE);
    private static final Pattern PROCESSED = Pattern.compile(
            "^number of transactions actually processed: ([0-9]+)", Pattern.MULTILINE);
    /** The parentheses that name the connection-free figure in the versions above. */
    private static final List<String> PREFERRED_BASES = List.of(
            "without initial connection time", "excluding connections establishing");

    private PgbenchOutput() {
    }

    /** The result of a run that exited with {@code exitCode} after printing {@code output} (stdout and stderr). */
    public static PgbenchResult parse(int exitCode, String output) {
        if (exitCode != 0) {
            return new PgbenchResult.Failed("pgbench exited with status " + exitCode + ": " + errorSummary(output));
        }
        OptionalLong failed = firstLong(FAILED, output);
        if (failed.isPresent() && failed.getAsLong() > 0) {
            return new PgbenchResult.Failed(failed.getAsLong() + " failed transactions");
        }
        OptionalLong processed = firstLong(PROCESSED, output);
        if (processed.isEmpty()) {
            return new PgbenchResult.Failed("no \"number of transactions actually processed\" line in pgbench's output");
        }
        List<Tps> figures = new ArrayList<>();
        Matcher matcher = TPS.matcher(output);
        while (matcher.find()) {
            figures.add(new Tps(Double.parseDouble(matcher.group(1)), matcher.group(2).strip()));
        }
        if (figures.isEmpty()) {
            return new PgbenchResult.Failed("no \"tps = ...\" line in pgbench's output");
        }
        Tps chosen = figures.stream().filter(tps -> PREFERRED_BASES.contains(tps.basis())).findFirst()
                .orElse(figures.getLast());
        return new PgbenchResult.Succeeded(chosen.value(), processed.getAsLong(), chosen.basis());
    }

    private record Tps(double value, String basis) {}

    private static OptionalLong firstLong(Pattern pattern, String output) {
        Matcher matcher = pattern.matcher(output);
        return matcher.find() ? OptionalLong.of(Long.parseLong(matcher.group(1))) : OptionalLong.empty();
    }

    /** pgbench's own error lines ("pgbench: error: ..."), else its last line: enough to see why. */
    static String errorSummary(String output) {
        List<String> errors = output.lines().filter(line -> line.contains("error:") || line.contains("FATAL"))
                .limit(3).toList();
        if (!errors.isEmpty()) {
            return String.join(" | ", errors);
        }
        List<String> lines = output.lines().filter(line -> !line.isBlank()).toList();
        return lines.isEmpty() ? "no output" : lines.getLast();
    }
}
