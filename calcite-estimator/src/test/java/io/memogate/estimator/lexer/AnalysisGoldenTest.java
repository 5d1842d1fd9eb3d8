package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Everything the lexical analysis tells about {@value #TEXTS} random texts ({@link RandomStatements}) is
 * what the lexer of commit 8cb4c87 told, before the single-pass rewrite: tokens, statement spans,
 * classifications, fingerprint hashes and texts, relation bounds, setting changes, with a reused token
 * stream and with a statement limit small enough to make statements oversized. The golden file holds a
 * digest of each text's description; {@link #main} wrote it, run against that commit's classes. Two changes
 * since are deliberate: DO, a UTILITY then, is a kind of its own, and a statement's analysis has its size
 * ({@link StatementSize}, checked by {@code StatementSizeTest}); descriptions spell them as they were.
 */
class AnalysisGoldenTest {

    static final long SEED = 20261122L;
    static final int TEXTS = 6000;
    static final String GOLDEN = "analysis-golden.txt";

    private static final String DO_NOW = "kind=DO, queryKind=DO, planned=true";
    private static final String DO_BEFORE = "kind=UTILITY, queryKind=UTILITY, planned=false";
    private static final Pattern SIZE = Pattern.compile(", size=StatementSize\\[[^\\]]*]");

    private static final LexicalAnalyzer DEFAULT = PostgresLexing.analyzer();
    private static final LexicalAnalyzer SMALL_LIMIT = PostgresLexing.analyzer(60);

    @Test
    void everyRandomTextIsAnalysedAsBeforeTheRewrite() throws IOException {
        List<String> golden;
        try (InputStream in = AnalysisGoldenTest.class.getResourceAsStream(GOLDEN)) {
            assertThat(in).as(GOLDEN).isNotNull();
            golden = new String(in.readAllBytes(), StandardCharsets.US_ASCII).lines().toList();
        }
        assertThat(golden).hasSize(TEXTS);
        RandomStatements texts = new RandomStatements(SEED);
        TokenStream scratch = new TokenStream(4);
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < TEXTS; i++) {
            String text = texts.next();
            String description = SIZE.matcher(describe(text, scratch).replace(DO_NOW, DO_BEFORE)).replaceAll("");
            if (!digest(description).equals(golden.get(i)) && differences.size() < 5) {
                differences.add("text " + i + ": " + text.replace("\n", "\\n") + "\n" + description);
            }
        }
        assertThat(differences).as("texts analysed differently from commit 8cb4c87").isEmpty();
    }

    /** What the analysis says about a text, through each public entry point. */
    static String describe(String text, TokenStream scratch) {
        StringBuilder b = new StringBuilder();
        b.append("tokens ").append(PostgresLexing.tokens(text)).append('\n');
        b.append("fingerprint ").append(PostgresLexing.fingerprint(text)).append('\n');
        b.append("bound ").append(PostgresLexing.bound(text)).append('\n');
        b.append("classification ").append(PostgresLexing.classification(text)).append('\n');
        b.append("setting ").append(PostgresLexing.settingChange(text)).append('\n');
        b.append("split ").append(PostgresLexing.split(text)).append('\n');
        for (LexicalAnalysis analysis : List.of(DEFAULT.analyze(text), DEFAULT.analyze(text, scratch),
                SMALL_LIMIT.analyze(text, scratch))) {
            b.append("analysis, ").append(analysis.emptyStatements()).append(" empty\n");
            for (StatementAnalysis s : analysis.statements()) {
                b.append(s).append(' ').append(s.fingerprint().hash()).append(' ').append(s.fingerprint().oversized())
                        .append('\n');
            }
        }
        return b.toString();
    }

    static String digest(String description) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(description.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the golden file to the path given: run against the classes of the commit it pins. */
    public static void main(String[] args) throws IOException {
        RandomStatements texts = new RandomStatements(SEED);
        TokenStream scratch = new TokenStream(4);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < TEXTS; i++) {
            out.append(digest(describe(texts.next(), scratch))).append('\n');
        }
        Files.writeString(Path.of(args[0]), out, StandardCharsets.US_ASCII);
    }
}
