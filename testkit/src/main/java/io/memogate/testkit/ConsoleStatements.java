package io.memogate.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.proxy.admission.StatementRecord;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The statement records of a Memogate that runs elsewhere (the container), read from its admin console's
 * {@code SHOW STATEMENTS}: each row made again into the {@link StatementRecord} the proxy keeps, its estimate
 * from the row's {@code json}, so that the assertions read them as they read the in-process proxy's.
 *
 * <p>{@link #clear} forgets nothing in the proxy, which other readers may share: it remembers the last
 * record number of each server, and later reads skip what came up to it. Not thread-safe: one test at a time.
 */
final class ConsoleStatements {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Server -> number of the last record {@link #clear} saw. */
    private final Map<String, Long> clearedUpTo = new HashMap<>();

    /** The statements recorded since the start or the last {@link #clear}, oldest first on each server. */
    Statements read(Connection console) throws SQLException {
        List<StatementRecord> records = new ArrayList<>();
        Map<String, Long> firstNumbers = new HashMap<>();
        for (Row row : rows(console)) {
            if (row.number() > clearedUpTo.getOrDefault(row.server(), 0L)) {
                records.add(row.record());
                firstNumbers.putIfAbsent(row.server(), row.number());
            }
        }
        // Numbers run on without gaps: those between the last cleared and the first kept were forgotten.
        long dropped = firstNumbers.entrySet().stream()
                .mapToLong(first -> first.getValue() - 1 - clearedUpTo.getOrDefault(first.getKey(), 0L)).sum();
        return new Statements(records, dropped);
    }

    /** From now on, {@link #read} returns only statements recorded after this. */
    void clear(Connection console) throws SQLException {
        for (Row row : rows(console)) {
            clearedUpTo.merge(row.server(), row.number(), Math::max);
        }
    }

    private static List<Row> rows(Connection console) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (Statement show = console.createStatement(); ResultSet result = show.executeQuery("SHOW STATEMENTS")) {
            while (result.next()) {
                rows.add(new Row(result.getString("server"), result.getLong("number"), record(result)));
            }
        }
        return rows;
    }

    private record Row(String server, long number, StatementRecord record) {}

    private static StatementRecord record(ResultSet row) throws SQLException {
        String reason = row.getString("refusal_reason");
        Optional<StatementRecord.Refusal> refusal = reason == null ? Optional.empty()
                : Optional.of(new StatementRecord.Refusal(
                        GatewayRejectedException.Reason.valueOf(reason.toUpperCase(Locale.ROOT)),
                        row.getString("refusal")));
        return new StatementRecord(row.getString("server"), row.getString("database"), row.getString("user"),
                estimate(row.getString("json")),
                StatementRecord.Outcome.valueOf(row.getString("outcome").toUpperCase(Locale.ROOT)),
                Optional.ofNullable(row.getString("tier")).map(tier -> Tier.valueOf(tier.toUpperCase(Locale.ROOT))),
                Optional.ofNullable(row.getString("waited_s")).map(ConsoleStatements::seconds), refusal);
    }

    private static Duration seconds(String text) {
        return Duration.ofNanos(new BigDecimal(text).movePointRight(9).longValueExact());
    }

    /** The estimate as EstimateJson writes it. */
    static CompileEstimate estimate(String json) {
        JsonNode line;
        try {
            line = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("SHOW STATEMENTS gave an estimate that is not JSON: " + json, e);
        }
        JsonNode terms = line.path("terms");
        double[] values = MemoryTerms.NAMES.stream().mapToDouble(name -> terms.path(name).asDouble()).toArray();
        return CompileEstimate.builder(line.path("fingerprint").asText(),
                        Long.parseUnsignedLong(line.path("fingerprintHash").asText(), 16), line.path("relations").asInt())
                .blocks(line.path("blocks").asInt())
                .memoPairs(line.path("memoPairs").asLong())
                .estimatedBytes(line.path("estimatedBytes").asLong())
                .parser(CompileEstimate.Parser.valueOf(line.path("parser").asText().toUpperCase(Locale.ROOT)))
                .bypass(line.path("bypass").asBoolean())
                .reason(line.path("reason").asText())
                .largestProblem(line.path("largestProblem").asInt())
                .search(CompileEstimate.Search.valueOf(line.path("search").asText().toUpperCase(Locale.ROOT)))
                .capped(line.path("capped").asBoolean())
                .statements(line.path("statements").asInt(1))
                .plannedWhileRunning(line.path("plannedWhileRunning").asBoolean())
                .terms(MemoryTerms.of(values))
                .build();
    }
}
