package io.memogate.proxy.postgres.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The operating-system account that runs initdb, postgres and pg_ctl.
 *
 * <p>PostgreSQL refuses to run as root ("root" execution of the PostgreSQL server is not permitted,
 * src/backend/main/main.c), and CI containers often run the build as root. Then the server runs as an
 * unprivileged account (by default {@code nobody}) through setpriv(1) from util-linux, which execs the
 * program in place: the {@link Process} the JVM holds is the postmaster itself, so signals and
 * {@code Process.waitFor} reach it directly (runuser(1) would fork and stay in between). Everything
 * the server writes is handed over to that account with chown. Public for the tests that run other
 * servers (PgBouncer) under the same rule.
 */
public sealed interface ServerAccount permits ServerAccount.CurrentUser, ServerAccount.Unprivileged {

    /** The command line that runs {@code command} as this account. */
    List<String> command(List<String> command);

    /** Makes {@code path} (not a symbolic link) owned by this account. */
    void own(Path path) throws IOException;

    /** Fails with an explanation when this account cannot reach {@code directory}. */
    void checkCanReach(Path directory) throws IOException;

    /** Who this JVM is, in a few words for log lines and error messages. */
    String describe();

    /** The current user, unless that is root; then {@code unprivilegedUser}. */
    public static ServerAccount forThisProcess(String unprivilegedUser) throws IOException {
        return effectiveUid() == 0 ? Unprivileged.lookup(unprivilegedUser) : new CurrentUser();
    }

    /** The effective uid from /proc/self/status ("Uid: real effective saved fs"). */
    static long effectiveUid() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
            if (line.startsWith("Uid:")) {
                return Long.parseLong(line.substring(4).trim().split("\\s+")[1]);
            }
        }
        throw new IOException("/proc/self/status has no Uid: line");
    }

    /** Not root: initdb and postgres run directly and own what they create. */
    record CurrentUser() implements ServerAccount {

        @Override
        public List<String> command(List<String> command) {
            return List.copyOf(command);
        }

        @Override
        public void own(Path path) {
            // Already ours.
        }

        @Override
        public void checkCanReach(Path directory) {
            // We created it, so we can reach it.
        }

        @Override
        public String describe() {
            return "the current user";
        }
    }

    /** Root JVM: the server runs as {@code name} (uid, primary gid) via setpriv. */
    record Unprivileged(String name, int uid, int gid) implements ServerAccount {

        /** Resolves {@code name} through NSS (getent), as setpriv and the server would. */
        static Unprivileged lookup(String name) throws IOException {
            String entry = run(List.of("getent", "passwd", name)).strip();
            if (entry.isEmpty()) {
                throw new IOException("the JVM runs as root, so PostgreSQL must run as another user, but user '"
                        + name + "' does not exist; create it or choose another with unprivilegedUser");
            }
            return parsePasswdLine(entry);
        }

        /** Parses "name:password:uid:gid:gecos:home:shell" (passwd(5)). */
        static Unprivileged parsePasswdLine(String line) {
            String[] fields = line.split(":", -1);
            if (fields.length < 4) {
                throw new IllegalArgumentException("not a passwd entry: " + line);
            }
            return new Unprivileged(fields[0], Integer.parseInt(fields[2]), Integer.parseInt(fields[3]));
        }

        @Override
        public List<String> command(List<String> command) {
            List<String> wrapped = new ArrayList<>(List.of(
                    "setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--"));
            wrapped.addAll(command);
            return List.copyOf(wrapped);
        }

        @Override
        public void own(Path path) throws IOException {
            Files.setAttribute(path, "unix:uid", uid, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(path, "unix:gid", gid, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        }

        @Override
        public void checkCanReach(Path directory) throws IOException {
            // initdb would fail later with a bare "Permission denied"; name the directory instead.
            for (Path dir = directory.toAbsolutePath(); dir != null; dir = dir.getParent()) {
                int mode = (Integer) Files.getAttribute(dir, "unix:mode");
                int owner = (Integer) Files.getAttribute(dir, "unix:uid");
                int group = (Integer) Files.getAttribute(dir, "unix:gid");
                boolean canSearch = owner == uid ? (mode & 0100) != 0
                        : group == gid ? (mode & 0010) != 0
                        : (mode & 0001) != 0;
                if (!canSearch) {
                    throw new IOException("the server runs as user " + name + " (the JVM is root), who cannot"
                            + " enter " + dir + " (mode " + Integer.toOctalString(mode & 07777) + "); choose a"
                            + " work directory that user can reach, such as /tmp");
                }
            }
        }

        @Override
        public String describe() {
            return "user " + name + " (uid " + uid + ") because the JVM runs as root";
        }

        private static String run(List<String> command) throws IOException {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            try {
                // One passwd line fits in the pipe buffer, so waiting before reading cannot deadlock;
                // the bound guards against a hung NSS backend (LDAP, sssd).
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IOException(String.join(" ", command) + " did not finish in 30 s");
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while running " + String.join(" ", command), e);
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return switch (process.exitValue()) {
                case 0 -> output;
                case 2 -> ""; // getent: "one or more supplied key could not be found"
                default -> throw new IOException(String.join(" ", command) + " exited with "
                        + process.exitValue() + ": " + output.strip());
            };
        }
    }
}
