package io.memogate.bench.storm.governor;

import java.util.List;
import java.util.OptionalLong;

/**
 * The operating system's view of the server's processes, as the governor needs it: who the postmaster's
 * children are, how much private memory each holds, and a way to kill one. An interface so that the
 * governor's decisions can be tested without a server; {@link ProcFs} is the real one.
 */
public interface ProcessTable {

    /** The direct children of {@code pid}: every PostgreSQL backend and auxiliary process; empty when gone. */
    List<Long> children(long pid);

    /** The process's private resident memory (RssAnon) in bytes, or empty when it has exited. */
    OptionalLong privateBytes(long pid);

    /** Sends SIGKILL, as the kernel's OOM killer does; a process that has already exited is ignored. */
    void kill(long pid);
}
