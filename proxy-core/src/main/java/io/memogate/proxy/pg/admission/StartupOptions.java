package io.memogate.proxy.pg.admission;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings in a StartupMessage's {@code options} parameter ({@code PGOPTIONS}, libpq's
 * {@code options=}), read as PostgreSQL reads them: split at unescaped whitespace ({@code pg_split_opts},
 * backslash escapes the next character), then {@code -c name=value}, {@code -cname=value} or
 * {@code --name=value}. Other switches are ignored; dashes in names become underscores, as the server
 * does for {@code --}.
 */
final class StartupOptions {

    private StartupOptions() {}

    static Map<String, String> parse(String options) {
        List<String> words = split(options);
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            String assignment = null;
            if (word.equals("-c") && i + 1 < words.size()) {
                assignment = words.get(++i);
            } else if (word.startsWith("-c")) {
                assignment = word.substring(2);
            } else if (word.startsWith("--")) {
                assignment = word.substring(2);
            }
            int equals = assignment == null ? -1 : assignment.indexOf('=');
            if (equals > 0) {
                settings.put(assignment.substring(0, equals).replace('-', '_'), assignment.substring(equals + 1));
            }
        }
        return settings;
    }

    private static List<String> split(String options) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean escaped = false;
        for (int i = 0; i < options.length(); i++) {
            char c = options.charAt(i);
            if (escaped) {
                word.append(c);
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (Character.isWhitespace(c)) {
                if (!word.isEmpty()) {
                    words.add(word.toString());
                    word.setLength(0);
                }
            } else {
                word.append(c);
            }
        }
        if (!word.isEmpty()) {
            words.add(word.toString());
        }
        return words;
    }
}
