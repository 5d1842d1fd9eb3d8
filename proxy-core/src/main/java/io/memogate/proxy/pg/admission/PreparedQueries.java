package io.memogate.proxy.pg.admission;

import io.memogate.proxy.admission.Words;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.lexer.LexicalAnalysis;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.StatementAnalysis;
import io.memogate.estimator.lexer.StatementKind;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements one session PREPAREd in SQL, by name, so that its {@code EXECUTE name} is estimated
 * (and gated) as the query it runs: without them an EXECUTE would pass every gateway unseen. Updated
 * as texts are sent: PREPARE adds (a second PREPARE of a name fails on the server and keeps the first,
 * so does this), DEALLOCATE [PREPARE] name | ALL and DISCARD ALL remove. Not thread-safe: one per
 * session, used on its event loop.
 */
public final class PreparedQueries implements PreparedStatementTexts {

    private static final Pattern DEALLOCATE = Pattern.compile(
            "(?is)deallocate\\s+(?:prepare\\s+)?(\"(?:[^\"]|\"\")+\"|[^\\s;]+)\\s*");
    private static final Pattern DISCARD_ALL = Pattern.compile("(?is)discard\\s+all\\s*");

    private final LexicalAnalyzer analyzer;
    private final Map<String, String> texts = new HashMap<>();

    public PreparedQueries(LexicalAnalyzer analyzer) {
        this.analyzer = analyzer;
    }

    /** A query text on its way to the server; texts that cannot prepare or deallocate are not lexed. */
    public void sent(String sql) {
        if (mayPrepareOrDeallocate(sql)) {
            sent(sql, analyzer.analyze(sql));
        }
    }

    /** Whether {@code statement} of {@code sql} adds or removes prepared statements: PREPARE, DEALLOCATE, DISCARD ALL. */
    static boolean changesPrepared(String sql, StatementAnalysis statement) {
        if (statement.kind() == StatementKind.PREPARE) {
            return true;
        }
        String text = statement.span().of(sql);
        return DEALLOCATE.matcher(text).matches() || DISCARD_ALL.matcher(text).matches();
    }

    /** As {@link #sent(String)}, with the text lexed already ({@link SentText}, maybe on another thread). */
    public void sent(String sql, LexicalAnalysis lexed) {
        for (StatementAnalysis statement : lexed.statements()) {
            String text = statement.span().of(sql);
            if (statement.kind() == StatementKind.PREPARE) {
                statement.classification().name().ifPresent(name -> texts.putIfAbsent(name, text));
                continue;
            }
            Matcher deallocate = DEALLOCATE.matcher(text);
            if (deallocate.matches()) {
                String name = deallocate.group(1);
                if (name.equalsIgnoreCase("all")) {
                    texts.clear();
                } else {
                    texts.remove(folded(name));
                }
            } else if (DISCARD_ALL.matcher(text).matches()) {
                texts.clear();
            }
        }
    }

    @Override
    public Optional<String> textOf(String name) {
        return Optional.ofNullable(texts.get(name));
    }

    /** As the server folds identifiers: quoted as written (doubled quotes undone), unquoted in lower case. */
    private static String folded(String name) {
        if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
            return name.substring(1, name.length() - 1).replace("\"\"", "\"");
        }
        return name.toLowerCase(Locale.ROOT);
    }

    /**
     * Whether the text holds "prepare", "deallocate" or "discard" in any case, the words that can change a
     * session's prepared statements. This runs on every statement a session sends, so it makes one pass with
     * a first-letter test per character: three passes comparing the whole word at every position took
     * 4 µs on a 1.2 kB query, as long as estimating it (bench/log/estimator-speed.md, "The session's own
     * filters").
     */
    public static boolean mayPrepareOrDeallocate(String sql) {
        int last = sql.length() - "prepare".length(); // the shortest of the three
        for (int i = 0; i <= last; i++) {
            // ASCII upper case to lower case (no other character becomes one of these letters); two letters
            // before comparing the rest: d and p open many column names (d_date, d1, ...)
            int c = sql.charAt(i) | 0x20;
            if (c == 'p' || c == 'd') {
                int next = sql.charAt(i + 1) | 0x20;
                if (c == 'p' && next == 'r' && Words.restMatches(sql, i, "prepare")
                        || c == 'd' && (next == 'e' && Words.restMatches(sql, i, "deallocate")
                                || next == 'i' && Words.restMatches(sql, i, "discard"))) {
                    return true;
                }
            }
        }
        return false;
    }
}
