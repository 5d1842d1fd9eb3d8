package io.memogate.bench.process;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

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
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(path, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                if (failure != null) {
                    throw failure;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
