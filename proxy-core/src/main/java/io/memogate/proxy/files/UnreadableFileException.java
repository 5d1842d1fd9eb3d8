package io.memogate.proxy.files;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A file the user named that cannot be read, with why in the few words a user reads after the file's
 * name ({@code /tmp/q.sql: file not found}), instead of the JDK's exception names
 * ({@code NoSuchFileException}, {@code MalformedInputException}), which say nothing to whoever typed the path.
 * Whoever knows which option or setting named the file puts that first.
 */
public final class UnreadableFileException extends IOException {

    private final Path file;
    private final String why;

    public UnreadableFileException(Path file, String why) {
        super(file + ": " + why);
        this.file = file;
        this.why = why;
    }

    private UnreadableFileException(Path file, String why, IOException cause) {
        this(file, why);
        initCause(cause);
    }

    /** {@code cause}, met while reading {@code file}, in a user's words. */
    public static UnreadableFileException of(Path file, IOException cause) {
        String why = switch (cause) {
            case UnreadableFileException e -> e.why;
            case NoSuchFileException e -> "file not found";
            case AccessDeniedException e -> "permission denied";
            // MalformedInputException and UnmappableCharacterException: Files.readString decodes strictly.
            case CharacterCodingException e -> "not UTF-8 text";
            default -> cause.getMessage() != null ? cause.getMessage() : cause.toString();
        };
        return new UnreadableFileException(file, why, cause);
    }

    public Path file() {
        return file;
    }

    /** "file not found", "is a directory, not a file", "permission denied", "not UTF-8 text", ... */
    public String why() {
        return why;
    }
}
