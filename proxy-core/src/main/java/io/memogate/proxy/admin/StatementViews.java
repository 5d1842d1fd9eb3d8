package io.memogate.proxy.admin;

import io.memogate.broker.gateway.Sizes;
import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.admission.QueuedStatement;
import io.memogate.proxy.admission.StatementRecord;
import io.memogate.proxy.admission.StatementRecords;
import java.util.List;
import java.util.Locale;

/**
 * SHOW STATEMENTS: the statements a server's admission remembers ({@code admission.statementRecords}), oldest
 * first, one row each: what was decided (outcome, highest tier, how long it queued, why it was refused) and
 * what it was decided on (the estimate, the fingerprint).
 *
 * <p>{@code number} counts a server's records from 1 and is never reused, so a script (or the testkit's
 * container) that remembers the last number it read can tell what came after. The {@code fingerprint} column
 * is an excerpt for a terminal; {@code json} holds the whole estimate, the fingerprint in full, as
 * EXPLAIN ADMISSION and {@code bin/memogate estimate} write it.
 */
final class StatementViews {

    /** The columns, in order: the testkit reads them by these names. */
    static final List<String> COLUMNS = List.of("number", "database", "user", "outcome", "tier", "waited_s",
            "estimate_bytes", "estimate", "relations", "memo_pairs", "refusal_reason", "refusal", "fingerprint",
            "json");

    private StatementViews() {
    }

    static ResultTable statements(StatementRecords.Window window) {
        ResultTable.Builder table = ResultTable.of(COLUMNS.toArray(String[]::new));
        long number = window.firstNumber();
        for (StatementRecord record : window.records()) {
            table.row(number++, record.database(), record.user(), record.outcome().name().toLowerCase(Locale.ROOT),
                    record.highestTier().map(Tier::configName).orElse(null),
                    record.queuedFor().map(AdmissionViews::seconds).orElse(null),
                    record.estimatedBytes(), Sizes.bytes(record.estimatedBytes()), record.estimate().relations(),
                    record.estimate().memoPairs(),
                    record.refusal().map(refusal -> refusal.reason().name().toLowerCase(Locale.ROOT)).orElse(null),
                    record.refusal().map(StatementRecord.Refusal::message).orElse(null),
                    QueuedStatement.shorten(record.fingerprint(), AdmissionViews.FINGERPRINT_CHARS),
                    EstimateJson.of(record.estimate()));
        }
        return table.build();
    }
}
