package io.memogate.bench.process;

import io.memogate.proxy.postgres.embedded.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A private temporary directory for one tool's configuration, log and pid file, removed by close(). */
public final class TempDirectory implements AutoCloseable {

    private final Path path;

    private TempDirectory(Path path) {
        this.path = path;
    }

    public static TempDirectory create(String prefix) throws IOException {
        return new TempDirectory(Files.createTempDirectory(prefix));
    }

    public Path path() {
        return path;
    }

    public Path resolve(String name) {
        return path.resolve(name);
    }

    /** Deletes the directory and everything in it; links are deleted, never followed. */
    @Override
    public void close() throws IOException {
        FileTrees.deleteRecursively(path);
    }
}
