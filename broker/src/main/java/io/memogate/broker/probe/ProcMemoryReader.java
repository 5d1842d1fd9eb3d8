package io.memogate.broker.probe;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Reads process and host memory from Linux's /proc (proc(5)), for a server that runs on this host.
 *
 * <p>A server process's own memory is its private resident memory. VmRSS will not do: it counts every
 * page of shared_buffers the process touched, so summing it over processes counts the buffer pool once
 * per process. RssAnon (status, Linux 4.5+) counts only anonymous pages, which for a PostgreSQL backend
 * are its private heap: the memory a finished compile leaves behind (see DESIGN.md, "sticky"). Without
 * RssAnon, smaps_rollup (Linux 4.14+) gives Pss_Anon (5.x) or, failing that, Pss, where shared pages are
 * divided among the processes that map them.
 *
 * <p>The root is injectable so tests can point it at a fake tree.
 */
public final class ProcMemoryReader {

    /** The kernel writes "No such process" (ESRCH) when a process exits while its file is read. */
    private static final String PROCESS_GONE = "No such process";
    private static final long KIB = 1024;
    /** Holds a status, smaps_rollup or meminfo file whole (1-2 kB); a longer one is read in larger steps. */
    private static final int READ_BYTES = 8 * 1024;

    private final Path procRoot;
    /**
     * Reused for every file: the broker reads each server process's status at every poll, and reading it by lines
     * made a reader's buffers (24 kB) and a String per line each time, for every backend.
     */
    private byte[] buffer = new byte[READ_BYTES]; // guarded by this

    public ProcMemoryReader(Path procRoot) {
        this.procRoot = Objects.requireNonNull(procRoot, "procRoot");
    }

    /** This host's /proc. */
    public static ProcMemoryReader system() {
        return new ProcMemoryReader(Path.of("/proc"));
    }

    /**
     * The private resident bytes of process {@code pid}, or empty when the process does not exist (any
     * more) or has no memory of its own (a zombie, a kernel thread). Never 0 for "unknown".
     *
     * @throws IOException when the files exist but cannot be read, e.g. smaps_rollup of another user's
     *                     process without the right to trace it
     */
    public OptionalLong privateBytes(long pid) throws IOException {
        if (pid <= 0) {
            throw new IllegalArgumentException("pid must be > 0, was " + pid);
        }
        Path process = procRoot.resolve(Long.toString(pid));
        try {
            OptionalLong rssAnon = kibField(read(process.resolve("status")), "RssAnon:");
            if (rssAnon.isPresent()) {
                return rssAnon;
            }
            String rollup = read(process.resolve("smaps_rollup"));
            OptionalLong pssAnon = kibField(rollup, "Pss_Anon:");
            return pssAnon.isPresent() ? pssAnon : kibField(rollup, "Pss:");
        } catch (NoSuchFileException gone) {
            return OptionalLong.empty();
        } catch (IOException e) {
            if (processGone(e)) {
                return OptionalLong.empty();
            }
            throw e;
        }
    }

    /**
     * Whether a read failed because the process exited meanwhile: opening its file gives a
     * FileSystemException whose reason (its message is "path: reason") is ESRCH's text; reading an open
     * one, an IOException with that text alone.
     */
    static boolean processGone(IOException e) {
        String reason = e instanceof FileSystemException file ? file.getReason() : e.getMessage();
        return PROCESS_GONE.equals(reason);
    }

    /** MemTotal and MemAvailable from meminfo; each empty when the kernel does not report it. */
    public HostMemory hostMemory() throws IOException {
        String meminfo = read(procRoot.resolve("meminfo"));
        return new HostMemory(kibField(meminfo, "MemTotal:"), kibField(meminfo, "MemAvailable:"));
    }

    /** A /proc file whole, as ASCII: its size is unknown until read (stat says 0). */
    private synchronized String read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            int length = 0;
            for (int n; (n = in.read(buffer, length, buffer.length - length)) > 0; ) {
                length += n;
                if (length == buffer.length) {
                    buffer = Arrays.copyOf(buffer, 2 * buffer.length);
                }
            }
            return new String(buffer, 0, length, StandardCharsets.US_ASCII);
        }
    }

    /** The value of a "Name:   123 kB" line, in bytes. */
    private static OptionalLong kibField(String text, String name) throws IOException {
        for (int start = 0; start < text.length(); ) {
            int end = text.indexOf('\n', start);
            end = end < 0 ? text.length() : end;
            String line = text.startsWith(name, start) ? text.substring(start, end) : null;
            start = end + 1;
            if (line != null) {
                String value = line.substring(name.length()).strip();
                if (!value.endsWith(" kB")) {
                    throw new IOException("expected '" + name + " <n> kB', found '" + line + "'");
                }
                try {
                    return OptionalLong.of(Math.multiplyExact(
                            Long.parseLong(value.substring(0, value.length() - 3).strip()), KIB));
                } catch (NumberFormatException | ArithmeticException e) {
                    throw new IOException("expected '" + name + " <n> kB', found '" + line + "'", e);
                }
            }
        }
        return OptionalLong.empty();
    }
}
