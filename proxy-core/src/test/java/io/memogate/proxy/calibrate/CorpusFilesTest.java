package io.memogate.proxy.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
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
    void aMissingDirectoryIsSaidSo() {
        assertThatThrownBy(() -> new CorpusFiles().read(dir.resolve("none"))).hasMessageContaining("not a directory");
    }
}
