package io.memogate.proxy.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.deser.ValueInstantiator;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Lets Jackson go on after the mistakes in a file's shape that it would otherwise stop at (an unknown
 * key, a list where one value belongs, a value where a mapping belongs), recording each as a problem
 * with its field path and line, so that one run reports them all. Each method skips the offending value
 * and answers null, i.e. "absent", which the later steps treat as a default or as missing; the
 * {@link Problems} rules keep that from being reported a second time.
 */
final class ProblemRecorder extends DeserializationProblemHandler {

    private final CheckingParser parser;
    private final Problems problems;

    ProblemRecorder(CheckingParser parser, Problems problems) {
        this.parser = parser;
        this.problems = problems;
    }

    @Override
    public boolean handleUnknownProperty(DeserializationContext ctxt, JsonParser p, JsonDeserializer<?> deserializer,
                                         Object beanOrClass, String propertyName) throws IOException {
        String objectPath = FieldPaths.of(valueContext(p).getParent());
        Collection<Object> known = deserializer == null ? List.of() : deserializer.getKnownPropertyNames();
        problems.add(FieldPaths.join(objectPath, propertyName), (objectPath.isEmpty() ? "" : objectPath + ": ")
                + "unknown field '" + propertyName + "'" + at(parser.lastKeyLocation()) + "; known fields: "
                + known.stream().map(String::valueOf).sorted().collect(Collectors.joining(", ")));
        p.skipChildren();
        return true;
    }

    @Override
    public Object handleUnexpectedToken(DeserializationContext ctxt, JavaType targetType, JsonToken t, JsonParser p,
                                        String failureMsg) throws IOException {
        return mismatch(p, expected(targetType.getRawClass()));
    }

    @Override
    public Object handleMissingInstantiator(DeserializationContext ctxt, Class<?> instClass,
                                            ValueInstantiator valueInsta, JsonParser p, String msg) throws IOException {
        // Jackson's way of saying "a scalar where a mapping belongs": no constructor takes the scalar.
        return mismatch(p, expected(instClass));
    }

    private Object mismatch(JsonParser p, String expected) throws IOException {
        String path = FieldPaths.of(valueContext(p));
        String where = path.isEmpty() ? "the configuration" : path;
        problems.add(path, where + " must be " + expected + ", was " + describe(p) + at(p.currentTokenLocation()));
        p.skipChildren();
        return null;
    }

    /**
     * The context whose current name or index is the field being read. A parser that has just read
     * START_OBJECT or START_ARRAY is already inside the new, still empty, context; its field is the
     * parent's current one.
     */
    private static JsonStreamContext valueContext(JsonParser p) {
        JsonStreamContext context = p.getParsingContext();
        return p.currentToken() != null && p.currentToken().isStructStart() ? context.getParent() : context;
    }

    /** How the value under the parser looks to the user: "a list", "a mapping", "'fast'", "empty". */
    static String describe(JsonParser p) throws IOException {
        JsonToken token = p.currentToken();
        if (token == null) {
            return "nothing";
        }
        return switch (token) {
            case START_ARRAY -> "a list";
            case START_OBJECT -> "a mapping";
            case VALUE_NULL -> "empty";
            case VALUE_STRING -> "'" + p.getText() + "'";
            default -> p.getText();
        };
    }

    /** What a value of the document's {@code type} looks like to the user. */
    static String expected(Class<?> type) {
        if (type == String.class) {
            return "a single value";
        }
        return List.class.isAssignableFrom(type) ? "a list" : "a mapping";
    }

    static String at(JsonLocation location) {
        return location == null || location.getLineNr() < 1 ? ""
                : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }
}
