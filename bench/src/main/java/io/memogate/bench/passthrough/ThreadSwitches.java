package io.memogate.bench.passthrough;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The context switches of all of a process's threads so far, summed from /proc/PID/task/TID/status. A thread
 * that ended between two readings takes its count with it, so a difference undercounts by what short-lived threads
 * did; a relay's event loops live as long as the process.
 */
record ThreadSwitches(long voluntary, long involuntary) {

    static ThreadSwitches of(long pid) {
        long voluntary = 0;
        long involuntary = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                String status;
                try {
                    status = Files.readString(task.resolve("status"), StandardCharsets.US_ASCII);
                } catch (NoSuchFileException ended) {
                    continue;
                }
                voluntary += field(status, "voluntary_ctxt_switches:");
                involuntary += field(status, "nonvoluntary_ctxt_switches:");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the threads of process " + pid, e);
        }
        return new ThreadSwitches(voluntary, involuntary);
    }

    /** The number after {@code name} at the start of a line of a status file; 0 when the line is missing. */
    static long field(String status, String name) {
        for (String line : status.split("\n")) {
            if (line.startsWith(name)) {
                return Long.parseLong(line.substring(name.length()).strip());
            }
        }
        return 0;
    }

    ThreadSwitches since(ThreadSwitches earlier) {
        return new ThreadSwitches(voluntary - earlier.voluntary, involuntary - earlier.involuntary);
    }
}
