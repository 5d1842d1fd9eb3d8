package io.memogate.proxy.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reading the text files a user names on the command line or in the configuration. */
public final class TextFiles {

    private TextFiles() {
    }

    /**
     * The text of {@code file}, which must be UTF-8: a file in another encoding is refused rather than
     * read with replacement characters, which would change the statements or values in it unseen.
     *
     * @throws UnreadableFileException saying why in a user's words
     */
    public static String read(Path file) throws UnreadableFileException {
        // Checked first: reading a directory fails with a bare "Is a directory" that names no file.
        if (Files.isDirectory(file)) {
            throw new UnreadableFileException(file, "is a directory, not a file");
        }
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw UnreadableFileException.of(file, e);
        }
    }

    /**
     * Checks that {@code directory} is one, before it is walked.
     *
     * @throws UnreadableFileException "directory not found" or "not a directory"
     */
    public static void requireDirectory(Path directory) throws UnreadableFileException {
        if (!Files.isDirectory(directory)) {
            throw new UnreadableFileException(directory, Files.exists(directory) ? "not a directory"
                    : "directory not found");
        }
    }
}
