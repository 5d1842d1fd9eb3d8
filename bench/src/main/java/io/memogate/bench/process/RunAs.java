package io.memogate.bench.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The account a server tool runs as. PgBouncer refuses to run as root ("PgBouncer should not run as
 * root", main.c), as PostgreSQL does; when this JVM is root the tool runs as an unprivileged user
 * through setpriv(1), which execs in place so the {@link Process} we hold is the tool itself and
 * stopping it by pid reaches it directly (runuser(1) would fork and stay in between).
 *
 * @param uid the user to switch to, or -1 to run as the current user
 * @param gid that user's primary group
 */
public record RunAs(String name, int uid, int gid) {

    /** {@code unprivilegedUser} (its passwd uid and primary gid) when this JVM is root, else the current user. */
    public static RunAs forThisProcess(String unprivilegedUser) throws IOException, InterruptedException {
        if (effectiveUid() != 0) {
            return new RunAs(System.getProperty("user.name"), -1, -1);
        }
        CommandResult entry = Commands.run(List.of("getent", "passwd", unprivilegedUser), Commands.baseEnvironment(),
                Duration.ofSeconds(30));
        String[] fields = entry.output().strip().split(":", -1);
        if (entry.exitCode() != 0 || fields.length < 4) {
            throw new IOException("this JVM runs as root, so server tools must run as '" + unprivilegedUser
                    + "', which getent cannot find: " + entry.output().strip());
        }
        return new RunAs(fields[0], Integer.parseInt(fields[2]), Integer.parseInt(fields[3]));
    }

    public boolean switchesUser() {
        return uid >= 0;
    }

    /** {@code command} prefixed with setpriv when the user changes. */
    public List<String> wrap(List<String> command) {
        if (!switchesUser()) {
            return List.copyOf(command);
        }
        List<String> wrapped = new ArrayList<>(List.of(
                "setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--"));
        wrapped.addAll(command);
        return List.copyOf(wrapped);
    }

    /** Hands {@code path} (a file or directory we created, not a link) to this account. */
    public void own(Path path) throws IOException {
        if (switchesUser()) {
            Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(path, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
        }
    }

    private static long effectiveUid() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
            if (line.startsWith("Uid:")) {
                return Long.parseLong(line.substring(4).trim().split("\\s+")[1]);
            }
        }
        throw new IOException("/proc/self/status has no Uid: line");
    }
}
