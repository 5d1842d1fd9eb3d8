package io.memogate.testkit;

import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.admission.StatementRecord;
import io.memogate.proxy.admission.StatementRecord.Outcome;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.function.Predicate;

/**
 * The statements Memogate's admission saw, oldest first, each with its estimate, fingerprint and the gateways it
 * took ({@link StatementRecord}); filters return narrower views. Assert on them with
 * {@link MemogateAssertions#assertThat(Statements)}.
 *
 * @param list the records, oldest first
 * @param dropped how many older statements were no longer remembered
 */
public record Statements(List<StatementRecord> list, long dropped) implements Iterable<StatementRecord> {

    public Statements {
        list = List.copyOf(list);
    }

    @Override
    public Iterator<StatementRecord> iterator() {
        return list.iterator();
    }

    public int size() {
        return list.size();
    }

    public boolean isEmpty() {
        return list.isEmpty();
    }

    /** Those whose fingerprint (the text with constants replaced by {@code ?}) contains {@code text}, any case. */
    public Statements matching(String text) {
        String wanted = text.toLowerCase(Locale.ROOT);
        return filter(record -> record.fingerprint().toLowerCase(Locale.ROOT).contains(wanted));
    }

    /** Those sent to {@code database}. */
    public Statements inDatabase(String database) {
        return filter(record -> record.database().equals(database));
    }

    /** Those whose highest gateway was {@code tier} (admitted there, or refused by its queue). */
    public Statements tookTier(Tier tier) {
        return filter(record -> record.highestTier().filter(tier::equals).isPresent());
    }

    /** Those that needed a tier higher than {@code tier}. */
    public Statements above(Tier tier) {
        return filter(record -> record.highestTier().filter(held -> held.compareTo(tier) > 0).isPresent());
    }

    /** Those that never needed an estimate in bytes: not planned, or naming at most one relation. */
    public Statements bypassed() {
        return withOutcome(Outcome.BYPASSED);
    }

    /** Those a gateway refused. */
    public Statements refused() {
        return withOutcome(Outcome.REFUSED);
    }

    /** Those that waited in a gateway's queue. */
    public Statements waited() {
        return filter(StatementRecord::waited);
    }

    public Statements withOutcome(Outcome outcome) {
        return filter(record -> record.outcome() == outcome);
    }

    public Statements filter(Predicate<StatementRecord> predicate) {
        return new Statements(list.stream().filter(predicate).toList(), dropped);
    }

    /**
     * The statement with the largest estimate, the latest of equals.
     *
     * @throws NoSuchElementException when there is none
     */
    public StatementRecord largest() {
        return list.stream().reduce((a, b) -> b.estimatedBytes() >= a.estimatedBytes() ? b : a)
                .orElseThrow(() -> new NoSuchElementException("Memogate recorded no statement" + droppedNote()));
    }

    /**
     * The latest statement.
     *
     * @throws NoSuchElementException when there is none
     */
    public StatementRecord last() {
        if (list.isEmpty()) {
            throw new NoSuchElementException("Memogate recorded no statement" + droppedNote());
        }
        return list.getLast();
    }

    String droppedNote() {
        return dropped == 0 ? "" : " (" + dropped + " older statements were no longer remembered)";
    }

    @Override
    public String toString() {
        return describe(list);
    }

    /** One statement a line, as failure messages print them. */
    static String describe(List<StatementRecord> records) {
        StringBuilder text = new StringBuilder();
        for (StatementRecord record : records) {
            text.append(System.lineSeparator()).append("  ").append(record.describe());
        }
        return text.toString();
    }
}
