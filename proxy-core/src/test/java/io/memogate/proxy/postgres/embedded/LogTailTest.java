package io.memogate.proxy.postgres.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogTailTest {

    @TempDir
    Path directory;

    @Test
    void returnsTheLastLinesWrittenAfterTheOffset() throws IOException {
        Path log = directory.resolve("postgres.log");
        Files.writeString(log, "old 1\nold 2\n");
        long offset = LogTail.sizeOf(log);
        Files.writeString(log, "new 1\nnew 2\nnew 3\nFATAL: boom\n", java.nio.file.StandardOpenOption.APPEND);

        assertThat(LogTail.read(log, offset, 2)).isEqualTo("new 3\nFATAL: boom");
        assertThat(LogTail.read(log, offset, 30)).isEqualTo("new 1\nnew 2\nnew 3\nFATAL: boom");
        assertThat(LogTail.read(log)).startsWith("old 1");
    }

    @Test
    void saysSoWhenThereIsNothingToShow() throws IOException {
        Path missing = directory.resolve("missing.log");
        assertThat(LogTail.sizeOf(missing)).isZero();
        assertThat(LogTail.read(missing)).contains("does not exist");
        Path empty = Files.createFile(directory.resolve("empty.log"));
        assertThat(LogTail.read(empty)).contains("is empty");
    }
}
