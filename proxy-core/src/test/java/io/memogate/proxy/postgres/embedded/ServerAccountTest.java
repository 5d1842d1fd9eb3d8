package io.memogate.proxy.postgres.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerAccountTest {

    @Test
    void effectiveUidMatchesId() throws Exception {
        Process id = new ProcessBuilder("id", "-u").start();
        String expected = new String(id.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertThat(id.waitFor()).isZero();
        assertThat(ServerAccount.effectiveUid()).isEqualTo(Long.parseLong(expected));
    }

    @Test
    void unprivilegedAccountRunsCommandsThroughSetpriv() {
        ServerAccount.Unprivileged nobody = ServerAccount.Unprivileged.parsePasswdLine(
                "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin");
        assertThat(nobody).isEqualTo(new ServerAccount.Unprivileged("nobody", 65534, 65534));
        assertThat(nobody.command(List.of("/pg/bin/postgres", "-D", "/data"))).containsExactly(
                "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", "/pg/bin/postgres", "-D", "/data");
        assertThat(new ServerAccount.CurrentUser().command(List.of("/pg/bin/initdb"))).containsExactly("/pg/bin/initdb");
    }

    @Test
    void unreachableDirectoryIsReportedByName(@TempDir Path directory) throws IOException {
        Path closed = Files.createDirectory(directory.resolve("closed"));
        Path inner = Files.createDirectory(closed.resolve("inner"));
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
        // An account that owns nothing here: only the "others" bits apply to it.
        ServerAccount.Unprivileged stranger = new ServerAccount.Unprivileged("stranger", 54321, 54321);
        assertThatIOException().isThrownBy(() -> stranger.checkCanReach(inner))
                .withMessageContaining("cannot enter " + closed + " (mode 700)");

        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx--x--x"));
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
        assumeParentsOpen(directory);
        stranger.checkCanReach(inner);
    }

    /** @TempDir lives under java.io.tmpdir, normally /tmp; skip the positive half if a parent is private. */
    private static void assumeParentsOpen(Path directory) throws IOException {
        for (Path dir = directory.getParent(); dir != null; dir = dir.getParent()) {
            int mode = (Integer) Files.getAttribute(dir, "unix:mode");
            assumeTrue((mode & 0001) != 0, dir + " is not searchable by others");
        }
    }
}
