package io.memogate.proxy.postgres.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorpusFilesTest {

    @TempDir
    Path dir;

    @Test
    void splitsEverySqlFileBelowTheDirectoryAsPostgresqlWould() throws IOException {
        Path corpus = Files.createDirectories(dir.resolve("mine/tpch"));
        Files.writeString(corpus.resolve("q1.sql"), """
                -- a comment; not a statement
                select 1 from a, b where a.x = b.x;
                select $$ ; $$ from c, d /* ; */ where c.y = d.y
                """);
        Files.writeString(dir.resolve("mine/notes.txt"), "select 1 from e, f;");
        Files.writeString(dir.resolve("mine/a.sql"), "select 2 from g, h;");

        assertThat(new CorpusFiles().read(dir.resolve("mine"))).containsExactly(
                new CorpusStatement("mine/a.sql#1", "select 2 from g, h"),
                new CorpusStatement("mine/tpch/q1.sql#1", "select 1 from a, b where a.x = b.x"),
                new CorpusStatement("mine/tpch/q1.sql#2", "select $$ ; $$ from c, d /* ; */ where c.y = d.y"));
    }

    @Test
    void aMissingDirectoryOrAFileIsSaidSo() throws IOException {
        assertThatThrownBy(() -> new CorpusFiles().read(dir.resolve("none")))
                .hasMessage(dir.resolve("none") + ": directory not found");
        Path file = Files.writeString(dir.resolve("q.sql"), "select 1");
        assertThatThrownBy(() -> new CorpusFiles().read(file)).hasMessage(file + ": not a directory");
    }

    @Test
    void aFileThatIsNotUtf8IsNamed() throws IOException {
        Path corpus = Files.createDirectories(dir.resolve("mine"));
        Path latin1 = Files.write(corpus.resolve("q.sql"), "select 'caf\u00e9'".getBytes(StandardCharsets.ISO_8859_1));

        assertThatThrownBy(() -> new CorpusFiles().read(corpus)).hasMessage(latin1 + ": not UTF-8 text");
    }
}
