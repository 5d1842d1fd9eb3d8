package io.memogate.proxy.config;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.dataformat.yaml.JacksonYAMLParseException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Binds YAML text to a {@link ConfigDocument} with Jackson, and turns whatever Jackson objects to into
 * problems that name the field path and the line. Mistakes in shape are recorded and skipped by
 * {@link ProblemRecorder}; what Jackson cannot go on after (YAML syntax, a key given twice) ends the
 * reading with one more problem.
 */
final class DocumentReader {

    /** SnakeYAML's "where" lines: {@code  in 'reader', line 3, column 1:}. */
    private static final Pattern SNAKEYAML_MARK = Pattern.compile("(?m)^ in '[^']*', line (\\d+), column (\\d+):$");

    private final YAMLMapper mapper = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // YAML forbids duplicate keys; without this Jackson would keep the last one silently.
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // ConfigDocument's fields are package-private: it is not an API.
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .build();

    private final ObjectReader reader = mapper.readerFor(ConfigDocument.class);

    /** The document, or null when nothing usable could be read; {@code problems} then says why. */
    ConfigDocument read(String yaml, Problems problems) {
        JsonParser yamlParser;
        try {
            yamlParser = mapper.createParser(yaml);
        } catch (IOException e) {
            throw new UncheckedIOException("reading YAML from a String", e); // no I/O happens
        }
        try (CheckingParser parser = new CheckingParser(yamlParser, problems)) {
            JsonToken first = parser.nextToken();
            if (first == null || first == JsonToken.VALUE_NULL) {
                problems.addGeneral("the configuration file is empty");
                return null;
            }
            if (first != JsonToken.START_OBJECT) {
                problems.addGeneral("the configuration must be a mapping with the keys listeners, backends, "
                        + "limits, admin, admission, broker, estimator, recycle and network, was " + ProblemRecorder.describe(parser)
                        + ProblemRecorder.at(parser.currentTokenLocation()));
                return null;
            }
            ConfigDocument document = reader.withHandler(new ProblemRecorder(parser, problems)).readValue(parser);
            if (parser.nextToken() != null) {
                problems.addGeneral("a second YAML document starts"
                        + ProblemRecorder.at(parser.currentTokenLocation()) + "; the configuration is one document");
            }
            return document;
        } catch (JsonProcessingException e) {
            translate(e, yamlParser, problems);
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("reading YAML from a String", e);
        }
    }

    /**
     * Records what Jackson stopped at. Databind wraps the parser's own exceptions (YAML syntax, a key
     * given twice) in a JsonMappingException that carries the field path; the parser's exception says
     * what is wrong.
     */
    private static void translate(JsonProcessingException e, JsonParser yamlParser, Problems problems) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof JacksonYAMLParseException syntax) {
                problems.addGeneral(yamlSyntaxError(syntax));
                return;
            }
        }
        if (e instanceof InvalidFormatException mismatch && mismatch.getTargetType() != null) {
            // A value Jackson refuses to coerce outside the problem handler's reach, e.g. "" for a mapping.
            String path = FieldPaths.of(mismatch.getPath());
            problems.add(path, path + " must be " + ProblemRecorder.expected(mismatch.getTargetType()) + ", was '"
                    + mismatch.getValue() + "'" + ProblemRecorder.at(mismatch.getLocation()));
            return;
        }
        String path;
        JsonProcessingException problem = e;
        if (e instanceof JsonMappingException mapping) {
            path = FieldPaths.of(mapping.getPath());
            if (mapping.getCause() instanceof JsonProcessingException parserProblem) {
                problem = parserProblem;
            }
        } else {
            path = FieldPaths.of(yamlParser.getParsingContext());
        }
        // Jackson's sentences start with a capital ("Duplicate field 'port'"); ours continue "path: ".
        String message = firstLine(problem.getOriginalMessage());
        problems.add(path, (path.isEmpty() ? "" : path + ": ")
                + message.substring(0, 1).toLowerCase(Locale.ROOT) + message.substring(1)
                + ProblemRecorder.at(problem.getLocation()));
    }

    /**
     * SnakeYAML's message spans several lines: what it was parsing and what it found instead, each
     * followed by an indented "in 'reader', line 3, column 1:" and an excerpt of the file with a caret.
     * Keeps the sentences, and the last mark (where the problem is) as the location: Jackson's own
     * location is that of the last token it delivered, which may be lines earlier.
     */
    private static String yamlSyntaxError(JacksonYAMLParseException e) {
        String message = e.getOriginalMessage();
        String where = ProblemRecorder.at(e.getLocation());
        Matcher mark = SNAKEYAML_MARK.matcher(message);
        while (mark.find()) {
            where = " (line " + mark.group(1) + ", column " + mark.group(2) + ")";
        }
        String sentences = Arrays.stream(message.split("\\R"))
                .filter(line -> !line.isBlank() && !Character.isWhitespace(line.charAt(0)))
                .collect(Collectors.joining("; "));
        return "YAML syntax error" + where + ": " + sentences;
    }

    private static String firstLine(String message) {
        return message == null || message.isBlank() ? "unreadable value" : message.lines().findFirst().orElseThrow();
    }
}
