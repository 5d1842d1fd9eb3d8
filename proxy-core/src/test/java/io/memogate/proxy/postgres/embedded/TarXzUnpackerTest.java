package io.memogate.proxy.postgres.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TarXzUnpackerTest {

    @TempDir
    Path directory;

    @Test
    void keepsExecutableBitsAndSymbolicLinks() throws IOException {
        byte[] archive = new TarXzFixture()
                .directory("bin")
                .file("bin/postgres", 0755, "binary")
                .file("share/postgresql/postgres.bki", 0644, "catalog") // parent dirs without entries
                .file("lib/libpq.so.5.18", 0755, "library")
                .symlink("lib/libpq.so", "libpq.so.5.18")
                .finish();
        Path target = directory.resolve("install");

        new TarXzUnpacker().unpack(new ByteArrayInputStream(archive), target);

        assertThat(mode(target.resolve("bin/postgres"))).isEqualTo("rwxr-xr-x");
        assertThat(mode(target.resolve("share/postgresql/postgres.bki"))).isEqualTo("rw-r--r--");
        assertThat(target.resolve("share/postgresql/postgres.bki")).hasContent("catalog");
        assertThat(target.resolve("lib/libpq.so")).isSymbolicLink();
        assertThat(Files.readSymbolicLink(target.resolve("lib/libpq.so"))).isEqualTo(Path.of("libpq.so.5.18"));
        assertThat(target.resolve("lib/libpq.so")).hasContent("library");
        // Directories must let the unprivileged server account in, with or without an archive entry.
        for (String dir : new String[] {"", "bin", "share", "share/postgresql", "lib"}) {
            assertThat(mode(target.resolve(dir))).as("mode of /%s", dir).isEqualTo("rwxr-xr-x");
        }
    }

    @Test
    void refusesEntriesThatEscapeTheTarget() throws IOException {
        byte[] escapingFile = new TarXzFixture().file("../escaped", 0644, "x").finish();
        assertThatIOException()
                .isThrownBy(() -> new TarXzUnpacker().unpack(new ByteArrayInputStream(escapingFile), directory.resolve("a")))
                .withMessageContaining("points outside");
        assertThat(directory.resolve("escaped")).doesNotExist();

        byte[] escapingLink = new TarXzFixture().symlink("lib/evil", "../../outside").finish();
        assertThatIOException()
                .isThrownBy(() -> new TarXzUnpacker().unpack(new ByteArrayInputStream(escapingLink), directory.resolve("b")))
                .withMessageContaining("points outside");
    }

    @Test
    void modeBitsMapToPermissions() {
        assertThat(PosixFilePermissions.toString(TarXzUnpacker.permissions(0100755))).isEqualTo("rwxr-xr-x");
        assertThat(PosixFilePermissions.toString(TarXzUnpacker.permissions(04750))).isEqualTo("rwxr-x---");
        assertThat(PosixFilePermissions.toString(TarXzUnpacker.permissions(0640))).isEqualTo("rw-r-----");
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }
}
