package io.memogate.bench.storm.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ten report templates of templates.sql. The file's format is this benchmark's own: each template
 * follows a {@code -- tNN: description} comment and ends with the first semicolon after it (templates
 * hold no semicolons in literals).
 */
public final class QueryTemplates {

    private static final String RESOURCE = "/io/memogate/bench/storm/templates.sql";
    private static final Pattern HEADER = Pattern.compile("^-- ([a-z]\\d+): (.*)$");

    private QueryTemplates() {
    }

    /** The built-in ten. */
    public static List<Template> load() {
        try (InputStream in = QueryTemplates.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /** Templates from a file in the same format, to try other workloads. */
    public static List<Template> load(Path file) throws IOException {
        List<Template> templates = parse(Files.readString(file, StandardCharsets.UTF_8));
        if (templates.isEmpty()) {
            throw new IllegalArgumentException(file + " holds no template (each follows a '-- tNN: description' line)");
        }
        return templates;
    }

    static List<Template> parse(String text) {
        List<Template> templates = new ArrayList<>();
        String name = null;
        StringBuilder description = new StringBuilder();
        StringBuilder sql = new StringBuilder();
        for (String line : text.split("\n")) {
            Matcher header = HEADER.matcher(line);
            if (name == null) {
                if (header.matches()) {
                    name = header.group(1);
                    description.setLength(0);
                    description.append(header.group(2).strip());
                }
                continue;
            }
            if (sql.isEmpty() && line.startsWith("--")) {
                description.append(' ').append(line.substring(2).strip()); // the description goes on
                continue;
            }
            int end = line.indexOf(';');
            sql.append(end < 0 ? line : line.substring(0, end)).append('\n');
            if (end >= 0) {
                templates.add(new Template(name, description.toString(), sql.toString().strip()));
                name = null;
                sql.setLength(0);
            }
        }
        if (name != null) {
            throw new IllegalStateException("template " + name + " has no closing semicolon");
        }
        return List.copyOf(templates);
    }
}
