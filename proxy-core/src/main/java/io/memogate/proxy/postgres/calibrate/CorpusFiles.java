package io.memogate.proxy.postgres.calibrate;

import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.StatementAnalysis;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import io.memogate.proxy.files.TextFiles;
import io.memogate.proxy.files.UnreadableFileException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
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

    private final LexicalAnalyzer analyzer = PostgresLexicalRules.analyzer();

    /**
     * @return each statement named {@code relative/path.sql#n}, n counting from 1 in the file
     * @throws UnreadableFileException naming the directory, or the file below it, that cannot be read
     */
    public List<CorpusStatement> read(Path directory) throws UnreadableFileException {
        TextFiles.requireDirectory(directory);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory)) {
            files = walk.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().endsWith(".sql"))
                    .sorted().toList();
        } catch (UncheckedIOException e) { // a sub-directory that cannot be listed
            throw unlisted(directory, e.getCause());
        } catch (IOException e) {
            throw unlisted(directory, e);
        }
        List<CorpusStatement> statements = new ArrayList<>();
        for (Path file : files) {
            String text = TextFiles.read(file);
            String name = directory.toAbsolutePath().normalize().getFileName() + "/" + directory.relativize(file);
            int n = 0;
            for (StatementAnalysis statement : analyzer.analyze(text).statements()) {
                statements.add(new CorpusStatement(name + "#" + ++n, statement.span().of(text)));
            }
        }
        return statements;
    }

    /** The walk names the directory it could not list in a FileSystemException; that one is the user's to fix. */
    private static UnreadableFileException unlisted(Path directory, IOException e) {
        Path where = e instanceof FileSystemException fs && fs.getFile() != null ? Path.of(fs.getFile()) : directory;
        return UnreadableFileException.of(where, e);
    }
}
