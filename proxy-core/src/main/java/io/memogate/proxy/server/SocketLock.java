package io.memogate.proxy.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * PostgreSQL's {@code .s.PGSQL.<port>.lock} beside a Unix socket: a file holding the process id of whoever
 * serves the socket. Whoever holds it may replace a stale socket file and remove the socket when done;
 * without it two proxies starting at once, or one started while another's socket was deleted by hand, could
 * each remove the other's socket. A PostgreSQL server's own lock on the same path counts like ours.
 */
final class SocketLock {

    /** Locks this process holds: two listeners of one JVM (tests, a reload) share the process id. */
    private static final Set<Path> HELD_HERE = ConcurrentHashMap.newKeySet();

    private final Path file;

    private SocketLock(Path file) {
        this.file = file;
    }

    /**
     * Takes the lock of {@code socket}; empty when a live process holds it (or its file cannot be read, so
     * that nobody can tell). A lock whose process has ended is stale and replaced, as PostgreSQL replaces it.
     *
     * @throws IOException when the lock file cannot be written (the directory is not writable)
     */
    static Optional<SocketLock> take(Path socket) throws IOException {
        // The directory's real path: a listener of this process reaching the same file by a symbolic link or
        // a "./" must find it held here, since a lock naming this process is otherwise taken as stale.
        Path file = socket.getParent().toRealPath().resolve(socket.getFileName() + ".lock");
        if (!HELD_HERE.add(file)) {
            return Optional.empty();
        }
        try {
            for (int attempt = 0; attempt < 2; attempt++) {
                try {
                    Files.writeString(file, ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII,
                            StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    return Optional.of(new SocketLock(file));
                } catch (FileAlreadyExistsException held) {
                    if (holderRuns(file)) {
                        break;
                    }
                    Files.deleteIfExists(file);
                }
            }
        } catch (IOException | RuntimeException e) {
            HELD_HERE.remove(file);
            throw e;
        }
        HELD_HERE.remove(file);
        return Optional.empty();
    }

    /**
     * Whether the process the lock names still runs; true when the file cannot be read or makes no sense. A
     * lock naming this process or its parent is stale, as PostgreSQL's CreateLockFile judges it: this process
     * holds none it has not recorded in {@link #HELD_HERE}, so a previous run with the same id left it (in a
     * container the proxy has the same id at every start, often 1), and a parent cannot be serving our socket.
     */
    private static boolean holderRuns(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
            long pid = Long.parseLong(lines.isEmpty() ? "" : lines.getFirst().strip());
            ProcessHandle self = ProcessHandle.current();
            if (pid == self.pid() || self.parent().map(parent -> parent.pid() == pid).orElse(false)) {
                return false;
            }
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException | NumberFormatException e) {
            return !Files.notExists(file); // gone meanwhile: free; unreadable or garbled: not ours to remove
        }
    }

    /**
     * Removes {@code served}, the socket this process made (nobody else can have made one there while the
     * lock was held), if any, then the lock.
     */
    void release(Optional<Path> served) {
        try {
            if (served.isPresent()) {
                Files.deleteIfExists(served.get());
            }
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // Left behind: the next start finds the lock's process gone and replaces both.
        } finally {
            HELD_HERE.remove(file);
        }
    }
}
