package io.memogate.proxy.postgres.embedded;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the last lines of a log file for error messages. Only the end of the file is read, because a
 * server log can be large by the time something fails.
 */
final class LogTail {

    /** Enough for the FATAL line and the context PostgreSQL prints before it. */
    static final int DEFAULT_LINES = 30;
    private static final int MAX_BYTES = 64 * 1024;

    private LogTail() {
    }

    /** The last {@code lines} lines written at or after byte {@code fromOffset}, or a note if none. */
    static String read(Path file, long fromOffset, int lines) {
        if (!Files.exists(file)) {
            return "(no log: " + file + " does not exist)";
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long start = Math.max(fromOffset, in.length() - MAX_BYTES);
            byte[] bytes = new byte[(int) Math.max(0, in.length() - start)];
            in.seek(start);
            in.readFully(bytes);
            List<String> all = Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\n"));
            List<String> tail = all.subList(Math.max(0, all.size() - lines), all.size());
            String text = String.join("\n", tail).strip();
            return text.isEmpty() ? "(log " + file + " is empty)" : text;
        } catch (IOException e) {
            // The caller is already reporting a failure; say why the log is missing instead of hiding it.
            return "(could not read log " + file + ": " + e + ")";
        }
    }

    /** The last {@link #DEFAULT_LINES} lines of the whole file. */
    static String read(Path file) {
        return read(file, 0, DEFAULT_LINES);
    }

    /** The current size of {@code file}, 0 if it does not exist yet: the offset of what comes next. */
    static long sizeOf(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            throw new EmbeddedPostgresException("cannot read the size of " + file, e);
        }
    }
}
