package io.memogate.proxy.postgres.embedded;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * Unpacks an xz-compressed tar archive (the {@code .txz} inside the PostgreSQL binaries jar) into a
 * directory, keeping what the binaries need to run: file modes (executables) and symbolic links
 * (lib/libpq.so -> libpq.so.5.18, ...).
 *
 * <p>Every directory gets mode 0755 whatever the archive or the umask say: when the JVM runs as root
 * the server runs as another user, who must be able to reach the binaries.
 */
final class TarXzUnpacker {

    private static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions.fromString("rwxr-xr-x");

    void unpack(InputStream compressed, Path target) throws IOException {
        Path root = target.toAbsolutePath().normalize();
        Files.createDirectories(root);
        Files.setPosixFilePermissions(root, DIRECTORY_MODE);
        try (TarArchiveInputStream tar = new TarArchiveInputStream(
                new XZInputStream(new BufferedInputStream(compressed, 1 << 16)))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path path = inside(root, root.resolve(entry.getName()), entry.getName());
                if (entry.isDirectory()) {
                    createDirectories(root, path);
                } else if (entry.isSymbolicLink()) {
                    createDirectories(root, path.getParent());
                    Path link = Path.of(entry.getLinkName());
                    // A link pointing outside the tree would make later writes escape it too.
                    inside(root, path.getParent().resolve(link), entry.getName() + " -> " + link);
                    Files.createSymbolicLink(path, link);
                } else if (entry.isFile()) {
                    createDirectories(root, path.getParent());
                    Files.copy(tar, path);
                    Files.setPosixFilePermissions(path, permissions(entry.getMode()));
                } else {
                    // Hard links, devices and fifos do not occur in the PostgreSQL bundles; fail loudly
                    // rather than produce an installation with a missing file.
                    throw new IOException("unsupported tar entry type for " + entry.getName());
                }
            }
        }
    }

    /** The permission bits of a tar mode (setuid, setgid and sticky are dropped on purpose). */
    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> result = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ ... OTHERS_EXECUTE
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << (bits.length - 1 - i))) != 0) {
                result.add(bits[i]);
            }
        }
        return result;
    }

    /** Creates {@code dir} and its missing parents below {@code root}, each with mode 0755. */
    private static void createDirectories(Path root, Path dir) throws IOException {
        if (dir.equals(root) || Files.isDirectory(dir)) {
            return;
        }
        createDirectories(root, dir.getParent());
        Files.createDirectory(dir);
        Files.setPosixFilePermissions(dir, DIRECTORY_MODE);
    }

    private static Path inside(Path root, Path candidate, String entryName) throws IOException {
        Path normalized = candidate.normalize();
        if (!normalized.startsWith(root)) {
            throw new IOException("archive entry " + entryName + " points outside " + root);
        }
        return normalized;
    }
}
