package io.memogate.proxy.postgres.calibrate.tpc;

import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.StatementAnalysis;
import io.memogate.estimator.lexer.StatementKind;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The statements of a SQL script, split by the estimator's lexer as the proxy splits them. */
final class Scripts {

    private static final LexicalAnalyzer LEXER = PostgresLexicalRules.analyzer();

    private Scripts() {
    }

    /** Each non-empty statement, stripped, without its semicolon. */
    static List<StatementAnalysis> analyze(String text) {
        return LEXER.analyze(text).statements().stream().filter(s -> s.kind() != StatementKind.EMPTY).toList();
    }

    static List<String> split(String text) {
        List<String> statements = new ArrayList<>();
        for (StatementAnalysis statement : analyze(text)) {
            String sql = statement.span().of(text).strip();
            if (!sql.isEmpty()) {
                statements.add(sql);
            }
        }
        return statements;
    }

    static String resource(String name) {
        try (InputStream in = Scripts.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }
}
