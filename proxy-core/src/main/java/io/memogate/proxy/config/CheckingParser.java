package io.memogate.proxy.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;

/**
 * Sits between the YAML parser and Jackson's binding, seeing every token that is bound:
 * <ul>
 *   <li>it remembers where the last key began: Jackson reports an unknown key once the parser has moved
 *       on to its value, which for a nested list or mapping starts on a later line, and the user needs
 *       the key's line;</li>
 *   <li>it refuses YAML aliases ({@code *name}): Jackson's YAML parser does not resolve them but hands
 *       over the alias name as if it were the value, so {@code host: *db} would silently mean host "db".</li>
 * </ul>
 */
final class CheckingParser extends JsonParserDelegate {

    private final Problems problems;
    private JsonLocation lastKey = JsonLocation.NA;

    CheckingParser(JsonParser yamlParser, Problems problems) {
        super(yamlParser);
        this.problems = problems;
    }

    @Override
    public JsonToken nextToken() throws IOException {
        JsonToken token = super.nextToken();
        if (token == JsonToken.FIELD_NAME) {
            lastKey = delegate.currentTokenLocation();
        } else if (delegate instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
            String path = FieldPaths.of(getParsingContext());
            problems.add(path, (path.isEmpty() ? "" : path + ": ") + "YAML aliases are not supported, write the value "
                    + "instead of *" + yaml.getText() + ProblemRecorder.at(delegate.currentTokenLocation()));
        }
        return token;
    }

    /** JsonParserDelegate forwards nextValue() past our nextToken(); route it through, as JsonParser does. */
    @Override
    public JsonToken nextValue() throws IOException {
        JsonToken token = nextToken();
        return token == JsonToken.FIELD_NAME ? nextToken() : token;
    }

    /** Where the key most recently read starts. */
    JsonLocation lastKeyLocation() {
        return lastKey;
    }
}
