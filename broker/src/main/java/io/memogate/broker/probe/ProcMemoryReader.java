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
    private final Opener opener;
    /**
     * Reused for every file: the broker reads each server process's status at every poll, and reading it by lines
     * made a reader's buffers (24 kB) and a String per line each time, for every backend.
     */
    private byte[] buffer = new byte[READ_BYTES]; // guarded by this

    public ProcMemoryReader(Path procRoot) {
        this(procRoot, Files::newInputStream);
    }

    ProcMemoryReader(Path procRoot, Opener opener) {
        this.procRoot = Objects.requireNonNull(procRoot, "procRoot");
        this.opener = Objects.requireNonNull(opener, "opener");
    }

    /** Opens a file for reading; a test counts the reads made of it. */
    @FunctionalInterface
    interface Opener {
        InputStream open(Path file) throws IOException;
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
    public synchronized OptionalLong privateBytes(long pid) throws IOException {
        if (pid <= 0) {
            throw new IllegalArgumentException("pid must be > 0, was " + pid);
        }
        Path process = procRoot.resolve(Long.toString(pid));
        try {
            OptionalLong rssAnon = kibField(read(process.resolve("status")), "RssAnon:");
            if (rssAnon.isPresent()) {
                return rssAnon;
            }
            int rollup = read(process.resolve("smaps_rollup"));
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
    public synchronized HostMemory hostMemory() throws IOException {
        int meminfo = read(procRoot.resolve("meminfo"));
        return new HostMemory(kibField(meminfo, "MemTotal:"), kibField(meminfo, "MemAvailable:"));
    }

    /**
     * A /proc file whole, into {@link #buffer}; returns its length. Its size is unknown until read (stat says 0). A
     * read that returns less than asked is taken as the end: the files read here (status, smaps_rollup, meminfo) are
     * single-record seq_files (single_open), which return all they hold when it fits (fs/seq_file.c, seq_read_iter),
     * as a regular file does; so the read that would return 0 is not made: it was one system call per server
     * process per poll, half the broker's reads.
     */
    private int read(Path file) throws IOException {
        try (InputStream in = opener.open(file)) {
            int length = 0;
            for (int n; (n = in.read(buffer, length, buffer.length - length)) > 0; ) {
                length += n;
                if (length < buffer.length) {
                    break;
                }
                buffer = Arrays.copyOf(buffer, 2 * buffer.length);
            }
            return length;
        }
    }

    /**
     * The value of a "Name:   123 kB" line among the first {@code length} bytes of {@link #buffer}, in bytes, read
     * in place: the broker reads each server process's status at every poll, and a String of it (1.5 kB) per process
     * per poll was most of what the broker allocated.
     */
    private OptionalLong kibField(int length, String name) throws IOException {
        for (int start = 0; start < length; ) {
            int end = start;
            while (end < length && buffer[end] != '\n') {
                end++;
            }
            if (startsWith(start, end, name)) {
                return OptionalLong.of(kib(start + name.length(), end, start, name));
            }
            start = end + 1;
        }
        return OptionalLong.empty();
    }

    private boolean startsWith(int start, int end, String name) {
        if (end - start < name.length()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (buffer[start + i] != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The number of "   123 kB" between {@code from} and {@code end}, times 1024; the line in the error if not. */
    private long kib(int from, int end, int lineStart, String name) throws IOException {
        int i = from;
        while (i < end && (buffer[i] == ' ' || buffer[i] == '\t')) {
            i++;
        }
        long value = 0;
        int digits = 0;
        for (; i < end && buffer[i] >= '0' && buffer[i] <= '9' && digits < 18; i++, digits++) {
            value = value * 10 + (buffer[i] - '0');
        }
        if (digits == 0 || end - i != 3 || buffer[i] != ' ' || buffer[i + 1] != 'k' || buffer[i + 2] != 'B') {
            String line = new String(buffer, lineStart, end - lineStart, StandardCharsets.US_ASCII);
            throw new IOException("expected '" + name + " <n> kB', found '" + line + "'");
        }
        try {
            return Math.multiplyExact(value, KIB);
        } catch (ArithmeticException e) {
            throw new IOException("expected '" + name + " <n> kB', value too large: " + value, e);
        }
    }
}
