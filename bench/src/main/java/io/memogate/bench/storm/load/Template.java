package io.memogate.bench.storm.load;

import java.util.Locale;

/**
 * One report of the storm's workload.
 *
 * @param name        t01 ... t10, as in templates.sql
 * @param description what it reports and its shape, from the comment above it
 * @param sql         the text with the {@value #TAG} and {@value #LITERAL} placeholders
 */
public record Template(String name, String description, String sql) {

    static final String TAG = "{tag}";
    static final String LITERAL = "{k}";

    public Template {
        if (!sql.contains(TAG) || !sql.contains(LITERAL)) {
            throw new IllegalArgumentException("template " + name + " must contain " + TAG + " and " + LITERAL);
        }
    }

    /**
     * A unique submission of this report: a comment naming the client and its submission number, and an
     * always-true literal that differs each time (the paper's load generator made each query unique so no
     * plan cache could serve it; PostgreSQL has none across sessions, and this keeps it that way).
     */
    public String render(int client, long submission, long literal) {
        return sql.replace(TAG, String.format(Locale.ROOT, "/* storm client %d submission %d */", client, submission))
                .replace(LITERAL, Long.toString(literal));
    }
}
