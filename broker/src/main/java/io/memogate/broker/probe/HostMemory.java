package io.memogate.broker.probe;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * The host's memory as {@code /proc/meminfo} states it. Either value is empty when the file does not
 * carry it (MemAvailable appeared in Linux 3.14).
 *
 * @param totalBytes     MemTotal: usable RAM
 * @param availableBytes MemAvailable: the kernel's estimate of what can be allocated without swapping
 */
public record HostMemory(OptionalLong totalBytes, OptionalLong availableBytes) {

    public HostMemory {
        Objects.requireNonNull(totalBytes, "totalBytes");
        Objects.requireNonNull(availableBytes, "availableBytes");
    }
}
