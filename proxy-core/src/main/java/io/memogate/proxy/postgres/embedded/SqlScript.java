package io.memogate.proxy.postgres.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits an SQL script into statements at top-level semicolons, so a resource file can be run over
 * JDBC one statement at a time (which names the failing statement, unlike one multi-statement query).
 *
 * <p>Semicolons inside 'strings', "identifiers", $tag$ dollar quotes $tag$, -- line comments and
 * (non-nested) block comments do not split (PostgreSQL 18, section 4.1). Comments stay in the
 * statement text; a piece holding nothing but comments and blanks is dropped.
 */
final class SqlScript {

    private SqlScript() {
    }

    /** The statements of the UTF-8 resource {@code name}, relative to {@code anchor}'s package. */
    static List<String> fromResource(Class<?> anchor, String name) {
        try (InputStream in = anchor.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " next to " + anchor.getName() + " is missing");
            }
            return split(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + name, e);
        }
    }

    static List<String> split(String script) {
        List<String> statements = new ArrayList<>();
        int start = 0;
        boolean hasCode = false; // something besides comments and blanks since start
        int i = 0;
        while (i < script.length()) {
            char c = script.charAt(i);
            if (c == '-' && script.startsWith("--", i)) {
                i = endOf(script, i, "\n");
            } else if (c == '/' && script.startsWith("/*", i)) {
                i = endOf(script, i + 2, "*/");
            } else if (c == '\'' || c == '"') {
                i = endOf(script, i + 1, String.valueOf(c)); // a doubled quote reads as two strings: same end
                hasCode = true;
            } else if (c == '$' && dollarTag(script, i) != null) {
                String tag = dollarTag(script, i);
                i = endOf(script, i + tag.length(), tag);
                hasCode = true;
            } else if (c == ';') {
                if (hasCode) {
                    statements.add(script.substring(start, i).strip());
                }
                start = i + 1;
                hasCode = false;
                i++;
            } else {
                hasCode |= !Character.isWhitespace(c);
                i++;
            }
        }
        if (hasCode) {
            statements.add(script.substring(start).strip());
        }
        return List.copyOf(statements);
    }

    /** Index just after the first {@code terminator} at or after {@code from}, or the script's end. */
    private static int endOf(String script, int from, String terminator) {
        int end = script.indexOf(terminator, from);
        return end < 0 ? script.length() : end + terminator.length();
    }

    /** The dollar-quote opener ($$ or $tag$) at {@code i}, or null ($1 is a parameter, not a quote). */
    private static String dollarTag(String script, int i) {
        int j = i + 1;
        while (j < script.length() && (Character.isLetter(script.charAt(j)) || script.charAt(j) == '_'
                || j > i + 1 && Character.isDigit(script.charAt(j)))) {
            j++;
        }
        return j < script.length() && script.charAt(j) == '$' ? script.substring(i, j + 1) : null;
    }
}
