package io.memogate.proxy.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Users' secrets in PgBouncer's auth_file format, so a DBA can reuse the file they have: one user per
 * line, {@code "name" "secret"}, each field in double quotes, a quote inside one doubled; blank lines and
 * lines starting with {@code ;} or {@code #} are comments. The secret is a password, an md5 hash or a
 * SCRAM verifier ({@link Secret#parse}). Immutable.
 */
public final class AuthFile {

    public static final AuthFile EMPTY = new AuthFile(Map.of());

    private final Map<String, Secret> secrets;

    private AuthFile(Map<String, Secret> secrets) {
        this.secrets = Map.copyOf(secrets);
    }

    /**
     * @throws IOException when the file cannot be read
     * @throws IllegalArgumentException naming the line of the first malformed entry
     */
    public static AuthFile read(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    static AuthFile parse(List<String> lines) {
        Map<String, Secret> secrets = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith(";") || line.startsWith("#")) {
                continue;
            }
            try {
                Fields fields = new Fields(line);
                String user = fields.quoted();
                String secret = fields.quoted();
                secrets.put(user, Secret.parse(secret));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return new AuthFile(secrets);
    }

    public Optional<Secret> secretOf(String user) {
        return Optional.ofNullable(secrets.get(user));
    }

    public int size() {
        return secrets.size();
    }

    /** The quoted fields of one line, read left to right; anything after the second is ignored, as PgBouncer does. */
    private static final class Fields {
        private final String line;
        private int at;

        Fields(String line) {
            this.line = line;
        }

        String quoted() {
            while (at < line.length() && Character.isWhitespace(line.charAt(at))) {
                at++;
            }
            if (at >= line.length() || line.charAt(at) != '"') {
                throw new IllegalArgumentException("expected \"user\" \"secret\", each in double quotes");
            }
            StringBuilder value = new StringBuilder();
            for (at++; at < line.length(); at++) {
                char c = line.charAt(at);
                if (c == '"') {
                    if (at + 1 < line.length() && line.charAt(at + 1) == '"') {
                        value.append('"');
                        at++;
                    } else {
                        at++;
                        return value.toString();
                    }
                } else {
                    value.append(c);
                }
            }
            throw new IllegalArgumentException("a quoted field is not closed");
        }
    }
}
