package io.memogate.bench.storm.governor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * {@link ProcessTable} read from Linux's /proc (proc(5)).
 *
 * <p>Memory is {@code RssAnon} from {@code /proc/PID/status}: the process's private resident pages.
 * {@code VmRSS} would also count every shared_buffers page the process touched, once per process, so a
 * sum over backends would count shared memory many times (docs/DESIGN.md, "sticky"). Children come from
 * {@code /proc/PID/task/PID/children} (one small read; the postmaster is single-threaded), falling back to
 * a scan of /proc through {@link ProcessHandle} where the kernel lacks that file.
 */
public final class ProcFs implements ProcessTable {

    private static final Path PROC = Path.of("/proc");

    @Override
    public List<Long> children(long pid) {
        Path file = PROC.resolve(pid + "/task/" + pid + "/children");
        try {
            String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
            List<Long> children = new ArrayList<>();
            if (!text.isEmpty()) {
                for (String field : text.split("\\s+")) {
                    children.add(Long.parseLong(field));
                }
            }
            return children;
        } catch (NoSuchFileException e) {
            if (Files.exists(PROC.resolve(Long.toString(pid)))) {
                return ProcessHandle.of(pid).map(p -> p.children().map(ProcessHandle::pid).toList()).orElse(List.of());
            }
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    @Override
    public OptionalLong privateBytes(long pid) {
        Path file = PROC.resolve(pid + "/status");
        String status;
        try {
            status = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        } catch (IOException e) {
            // A process that exits while its status is read fails the read with ESRCH: it is gone.
            if (!Files.exists(PROC.resolve(Long.toString(pid)))) {
                return OptionalLong.empty();
            }
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return rssAnon(status);
    }

    /** The {@code RssAnon:} line of a status file, in bytes; empty for a zombie, which has no memory lines. */
    static OptionalLong rssAnon(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("RssAnon:")) {
                String value = line.substring("RssAnon:".length()).strip();
                if (!value.endsWith(" kB")) {
                    throw new IllegalArgumentException("unexpected RssAnon line: " + line);
                }
                return OptionalLong.of(Long.parseLong(value.substring(0, value.length() - 3).strip()) * 1024);
            }
        }
        return OptionalLong.empty();
    }

    @Override
    public void kill(long pid) {
        // destroyForcibly is kill(pid, SIGKILL) on Linux, for any process we may signal (we are root).
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }

    /**
     * Makes {@code pid} the kernel OOM killer's first choice (oom_score_adj 1000, proc(5)); processes it
     * forks later inherit the value, so setting it on the postmaster covers every future backend.
     */
    public void preferForOomKill(long pid) {
        Path file = PROC.resolve(pid + "/oom_score_adj");
        try {
            Files.writeString(file, "1000", StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            // exited meanwhile
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + " (the benchmark must run as root, or as the"
                    + " server's owner, to protect the machine this way)", e);
        }
    }
}
