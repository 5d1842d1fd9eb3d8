package io.memogate.proxy.calibrate;

import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.StatementAnalysis;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The statements of every {@code *.sql} file under a directory (its sub-directories too, in name order),
 * split by the estimator's own lexer, so that what is measured is exactly what the proxy would estimate
 * (dollar quotes, nested comments and the like split as PostgreSQL splits them).
 */
public final class CorpusFiles {

    private final LexicalAnalyzer analyzer = new LexicalAnalyzer();

    /**
     * @return each statement named {@code relative/path.sql#n}, n counting from 1 in the file
     * @throws IOException when the directory or a file cannot be read
     */
    public List<CorpusStatement> read(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            throw new IOException("not a directory: " + directory);
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory)) {
            files = walk.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().endsWith(".sql"))
                    .sorted().toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        List<CorpusStatement> statements = new ArrayList<>();
        for (Path file : files) {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            String name = directory.toAbsolutePath().normalize().getFileName() + "/" + directory.relativize(file);
            int n = 0;
            for (StatementAnalysis statement : analyzer.analyze(text).statements()) {
                statements.add(new CorpusStatement(name + "#" + ++n, statement.span().of(text)));
            }
        }
        return statements;
    }
}
