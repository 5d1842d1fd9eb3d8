package io.memogate.bench.storm.governor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The postmaster a governor watches. */
public final class Postmaster {

    private Postmaster() {
    }

    /** Line 1 of postmaster.pid (src/include/utils/pidfile.h): the postmaster itself, not a wrapper. */
    public static long pid(Path dataDirectory) throws IOException {
        List<String> lines = Files.readAllLines(dataDirectory.resolve("postmaster.pid"), StandardCharsets.US_ASCII);
        return Long.parseLong(lines.getFirst().strip());
    }
}
