package io.memogate.proxy.it.fuzz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Compares a case's run through the proxy with its run against PostgreSQL directly. The proxy must give
 * the client the same answers (every token of {@link Replies}) and leave the same rows, except where the
 * documentation (docs/admission.md) says that it behaves otherwise; each such difference is one
 * {@link Allowance}, checked as narrowly as the documentation states it. Anything else is a problem: a hang, a reset, malformed output, an
 * answer PostgreSQL gave and the proxy did not, a row too many or missing.
 */
final class Verdict {

    /** A documented way the proxy's answers may differ from PostgreSQL's. */
    enum Allowance {
        /** The same answers. */
        NONE,
        /**
         * docs/admission.md, "Errors the proxy itself sends", first row: a message whose header is wrong (an unknown type,
         * one PostgreSQL does not read during COPY data, a length under 4, a short type over PostgreSQL's 10000
         * bytes, a length over limits.maxMessageBytes)
         * is refused at once with FATAL 08P01, after the answers of the Queries and Syncs sent whole before it.
         * PostgreSQL stops at the same message: it closes without a word at a length it refuses (its
         * pq_getmessage logs COMMERROR "invalid message length" and exits) or waits for the bytes a length
         * under 1 GB announces. Only the FATAL differs, and what the proxy does not wait for: the answers to a
         * batch sent without its Sync before the bad message ("batches up to their Sync"), which the server
         * holds until a Sync or Flush.
         */
        REFUSED_HEADER,
        /**
         * docs/admission.md, same row: "A message whose fields do not parse (a string without its NUL, a count its body does
         * not hold) is FATAL 08P01 too, where PostgreSQL answers ERROR 08P01 and reads on" (or skips the message
         * unread, when it skips to a Sync after an earlier error in the batch). Up to the batch or Query that
         * holds it the answers are the same, and that batch has an error in PostgreSQL's run; after it the proxy
         * ran nothing.
         */
        REFUSED_BODY,
        /**
         * docs/admission.md, same row: a COPY FROM STDIN whose data the client had not ended before the bad message is not
         * waited for, since the server answers it only at the data's end, which will not come. The proxy's
         * FATAL follows the CopyInResponse; PostgreSQL answered the COPY first (an error: the bad message's
         * own, or one in the data, after which it went on with what followed the data).
         */
        COPY_NOT_AWAITED,
        /**
         * docs/admission.md, "What the client sends behind a waiting statement": while a statement of a batch waits for admission behind statements of
         * the session the server has not answered, or after a Bind that keeps its permits while it runs, the
         * proxy sends the server a Flush, so a client may get the answers of a batch before it sends the Sync.
         * Only a client whose connection ends without that Sync sees a difference: after all of PostgreSQL's
         * answers, answers PostgreSQL dropped unsent at the end (never a ReadyForQuery or an error, which
         * PostgreSQL sends at once), then perhaps the proxy's FATAL for a message refused on its header.
         */
        FLUSHED_BEFORE_SYNC,
        /**
         * Not the proxy's: PostgreSQL's own run ended in a reset. It closed with bytes of the client's unread (after
         * a FATAL, say), so its kernel reset the connection, and the client's kernel dropped the answers the client
         * had not read yet. PostgreSQL's answers are then only the start of what it sent: the proxy's must begin with
         * them, and the rest cannot be checked against them.
         */
        POSTGRESQL_RUN_CUT_SHORT,
    }

    /**
     * The first characters of the tokens of what PostgreSQL answers a batch and keeps until a Sync or Flush:
     * ParseComplete, BindComplete, CloseComplete, NoData, PortalSuspended, EmptyQueryResponse, DataRow,
     * RowDescription, CommandComplete, ParameterDescription, NoticeResponse.
     */
    private static final String KEPT_UNTIL_SYNC = "123nsIDTCtN";

    /** What one run left: its answers, how it ended, and the rows of its table. */
    record Outcome(WireRun.Result run, Replies replies, List<Integer> rows) {}

    private final List<String> problems = new ArrayList<>();
    private Allowance allowance = Allowance.NONE;

    private Verdict() {}

    List<String> problems() {
        return problems;
    }

    Allowance allowance() {
        return allowance;
    }

    /**
     * The tokens PostgreSQL gave before the client's end of input made it answer: in COPY FROM STDIN it reports
     * the end as ERROR 08006 ("unexpected EOF on client connection with an open transaction"), then a
     * ReadyForQuery, or FATAL 08P01 ("protocol synchronization was lost") when the end came inside a message,
     * to a client that has gone. Through the proxy, which takes the end of input as the client gone (docs/admission.md,
     * "Errors the proxy itself sends", last paragraph), nobody is there to answer.
     */
    static List<String> answersBeforeEndOfInput(List<String> tokens) {
        int end = tokens.size();
        if (end >= 2 && tokens.get(end - 2).equals("E:ERROR:08006")
                && (tokens.get(end - 1).startsWith("Z:") || tokens.get(end - 1).equals("E:FATAL:08P01"))) {
            end -= 2;
        } else if (end >= 1 && tokens.get(end - 1).equals("E:ERROR:08006")) {
            end -= 1;
        }
        return tokens.subList(0, end);
    }

    /** @param holds the proxy's admission holds statements, so it may send the server Flushes of its own */
    static Verdict judge(Outcome direct, Outcome proxy, boolean holds) {
        Verdict verdict = new Verdict();
        verdict.checkBaseline(direct);
        verdict.checkProxyRun(proxy);
        List<String> expected = answersBeforeEndOfInput(direct.replies().tokens());
        verdict.compareAnswers(expected, proxy.replies(), holds, direct.run().end() == WireRun.End.RESET);
        verdict.compareRows(direct, proxy);
        return verdict;
    }

    /** The test's own assumptions about PostgreSQL, checked on the direct run: a failure here is the test's. */
    private void checkBaseline(Outcome direct) {
        direct.replies().malformed().ifPresent(why -> problems.add("TEST: PostgreSQL's own answers do not parse: "
                + why));
        if (direct.run().end() == WireRun.End.DEADLINE) {
            problems.add("TEST: PostgreSQL did not close the connection within " + WireRun.DEADLINE);
        }
        missing(direct.replies().committedInserts(), direct.rows()).ifPresent(ids -> problems.add(
                "TEST: inserts PostgreSQL said were committed are not in its table: " + ids));
    }

    private void checkProxyRun(Outcome proxy) {
        switch (proxy.run().end()) {
            case DEADLINE -> problems.add("hang: the proxy neither answered nor closed within " + WireRun.DEADLINE);
            case RESET -> problems.add("the proxy reset the connection: a client may lose its last answers");
            default -> { }
        }
        if (proxy.run().waitedOut()) {
            problems.add("hang: the proxy kept answers PostgreSQL gave without the client's end of input, and did"
                    + " not close");
        }
        proxy.replies().malformed().ifPresent(why -> problems.add("malformed output: " + why));
        missing(proxy.replies().committedInserts(), proxy.rows()).ifPresent(ids -> problems.add(
                "lost: the client was told these inserts were committed, but they are not in the table: " + ids));
    }

    private void compareAnswers(List<String> expected, Replies proxy, boolean holds, boolean directReset) {
        List<String> actual = proxy.tokens();
        if (actual.equals(expected)) {
            return;
        }
        Optional<String> refusal = proxyRefusal(proxy);
        if (holds && flushedBeforeSync(expected, actual, refusal)) {
            allowance = Allowance.FLUSHED_BEFORE_SYNC;
            return;
        }
        List<String> before = actual.subList(0, Math.max(0, actual.size() - 1));
        if (refusal.isPresent() && isPrefix(before, expected)) {
            List<String> rest = expected.subList(before.size(), expected.size());
            boolean header = isHeaderRefusal(refusal.get());
            if (header && rest.stream().noneMatch(token -> token.startsWith("Z:"))) {
                allowance = Allowance.REFUSED_HEADER;
                return;
            }
            if (!header && batchFailed(expected, before.size())) {
                allowance = Allowance.REFUSED_BODY;
                return;
            }
            boolean afterCopyInResponse = !before.isEmpty() && before.getLast().equals("G");
            if (afterCopyInResponse && !rest.isEmpty() && rest.getFirst().startsWith("E:")) {
                allowance = Allowance.COPY_NOT_AWAITED;
                return;
            }
        }
        if (directReset && isPrefix(expected, actual)) {
            allowance = Allowance.POSTGRESQL_RUN_CUT_SHORT;
            return;
        }
        problems.add("answers differ from PostgreSQL's:\n    direct: " + expected + "\n    proxy:  " + actual);
    }

    /**
     * With the answers the same, the rows must be too. Where the proxy stopped early (an allowance), or took
     * the client's end of input as the client gone, it may have run less, never more: its rows must be some of
     * PostgreSQL's.
     */
    private void compareRows(Outcome direct, Outcome proxy) {
        boolean proxyStoppedEarly = allowance != Allowance.NONE
                || proxy.run().end() == WireRun.End.CLOSED_AFTER_HALF_CLOSE;
        if (proxyStoppedEarly) {
            missing(proxy.rows(), direct.rows()).ifPresent(ids -> problems.add(
                    "rows the proxy's run inserted that PostgreSQL's did not (run twice, or run where it should not): "
                            + ids));
        } else if (!sorted(direct.rows()).equals(sorted(proxy.rows()))) {
            problems.add("rows differ:\n    direct: " + sorted(direct.rows())
                    + "\n    proxy:  " + sorted(proxy.rows()));
        }
    }

    /**
     * Whether the proxy gave all of PostgreSQL's answers, then only answers PostgreSQL keeps until a Sync, and
     * perhaps its FATAL for a message refused on its header.
     */
    private static boolean flushedBeforeSync(List<String> expected, List<String> actual, Optional<String> refusal) {
        List<String> extra = isPrefix(expected, actual) ? actual.subList(expected.size(), actual.size()) : List.of();
        if (!extra.isEmpty() && refusal.isPresent() && isHeaderRefusal(refusal.get())) {
            extra = extra.subList(0, extra.size() - 1);
        }
        return !extra.isEmpty() && extra.stream().allMatch(token -> KEPT_UNTIL_SYNC.indexOf(token.charAt(0)) >= 0);
    }

    private static boolean isHeaderRefusal(String refusal) {
        return refusal.startsWith("unknown message type")
                || refusal.startsWith("unexpected message type") // during COPY data, as PostgreSQL
                || refusal.startsWith("invalid message length")
                || refusal.startsWith("message too long");
    }

    /** The proxy's own FATAL 08P01 at the end of its answers: what it says was wrong. */
    private static Optional<String> proxyRefusal(Replies proxy) {
        List<String> tokens = proxy.tokens();
        if (tokens.isEmpty() || !tokens.getLast().equals("E:FATAL:08P01") || proxy.errors().isEmpty()) {
            return Optional.empty();
        }
        String message = proxy.errors().getLast().getOrDefault('M', "");
        String prefix = "invalid frontend message: "; // PgErrors.protocolViolation; PostgreSQL has no colon there
        return message.startsWith(prefix) ? Optional.of(message.substring(prefix.length())) : Optional.empty();
    }

    /**
     * Whether PostgreSQL answered an error in the cycle (a Query, or a batch up to its Sync) holding the message
     * the proxy refused, which starts after the last ReadyForQuery before {@code stop}: an ERROR 08P01 for the
     * message itself, or an earlier error after which PostgreSQL skipped to the Sync without reading it.
     */
    private static boolean batchFailed(List<String> expected, int stop) {
        int start = stop;
        while (start > 0 && !expected.get(start - 1).startsWith("Z:")) {
            start--;
        }
        for (String token : expected.subList(start, expected.size())) {
            if (token.startsWith("E:")) {
                return true;
            }
            if (token.startsWith("Z:")) {
                return false;
            }
        }
        return false;
    }

    private static boolean isPrefix(List<String> prefix, List<String> of) {
        return prefix.size() <= of.size() && of.subList(0, prefix.size()).equals(prefix);
    }

    /** The ids of {@code some} that {@code all} has fewer of (as multisets), if any. */
    private static Optional<List<Integer>> missing(List<Integer> some, List<Integer> all) {
        Map<Integer, Integer> left = new HashMap<>();
        all.forEach(id -> left.merge(id, 1, Integer::sum));
        List<Integer> missing = new ArrayList<>();
        for (Integer id : some) {
            if (left.merge(id, -1, Integer::sum) < 0) {
                missing.add(id);
            }
        }
        return missing.isEmpty() ? Optional.empty() : Optional.of(missing);
    }

    private static List<Integer> sorted(List<Integer> rows) {
        return rows.stream().sorted().toList();
    }
}
