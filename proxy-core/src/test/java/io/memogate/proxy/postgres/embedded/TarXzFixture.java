package io.memogate.proxy.postgres.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/** Builds small .txz archives in memory, shaped like the PostgreSQL bundle, for unpacking tests. */
final class TarXzFixture {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final TarArchiveOutputStream tar;

    TarXzFixture() throws IOException {
        tar = new TarArchiveOutputStream(new XZOutputStream(bytes, new LZMA2Options(1)));
    }

    TarXzFixture directory(String name) throws IOException {
        TarArchiveEntry entry = new TarArchiveEntry(name.endsWith("/") ? name : name + "/");
        entry.setMode(040755);
        tar.putArchiveEntry(entry);
        tar.closeArchiveEntry();
        return this;
    }

    TarXzFixture file(String name, int mode, String content) throws IOException {
        byte[] data = content.getBytes(StandardCharsets.UTF_8);
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setMode(0100000 | mode);
        entry.setSize(data.length);
        tar.putArchiveEntry(entry);
        tar.write(data);
        tar.closeArchiveEntry();
        return this;
    }

    TarXzFixture symlink(String name, String target) throws IOException {
        TarArchiveEntry entry = new TarArchiveEntry(name, TarArchiveEntry.LF_SYMLINK);
        entry.setLinkName(target);
        tar.putArchiveEntry(entry);
        tar.closeArchiveEntry();
        return this;
    }

    /** The three programs and the catalog file {@link PostgresBinaries} checks for. */
    TarXzFixture postgresLayout() throws IOException {
        return file("bin/initdb", 0755, "#!/bin/sh\n")
                .file("bin/postgres", 0755, "#!/bin/sh\n")
                .file("bin/pg_ctl", 0755, "#!/bin/sh\n")
                .file("share/postgresql/postgres.bki", 0644, "catalog\n")
                .file("lib/libpq.so.5.18", 0755, "elf\n")
                .symlink("lib/libpq.so", "libpq.so.5.18");
    }

    byte[] finish() throws IOException {
        tar.finish();
        tar.close();
        return bytes.toByteArray();
    }
}
