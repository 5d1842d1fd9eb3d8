package io.memogate.proxy.admission;

import io.memogate.estimator.PreparedStatementTexts;
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
        if (!containsIgnoreCase(sql, "prepare") && !containsIgnoreCase(sql, "deallocate")
                && !containsIgnoreCase(sql, "discard")) {
            return;
        }
        for (StatementAnalysis statement : analyzer.analyze(sql).statements()) {
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

    static boolean containsIgnoreCase(String text, String word) {
        int last = text.length() - word.length();
        for (int i = 0; i <= last; i++) {
            if (text.regionMatches(true, i, word, 0, word.length())) {
                return true;
            }
        }
        return false;
    }
}
