package io.memogate.proxy.config;

import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import java.util.List;

/** Field paths as the user reads them in the YAML file: {@code backends[1].tls.mode}. */
final class FieldPaths {

    private FieldPaths() {
    }

    /** The path of the value {@code context} is at: its current field name or list index. */
    static String of(JsonStreamContext context) {
        if (context == null || context.inRoot()) {
            return "";
        }
        String parent = of(context.getParent());
        if (context.inArray()) {
            return parent + "[" + Math.max(context.getCurrentIndex(), 0) + "]";
        }
        return context.getCurrentName() == null ? parent : join(parent, context.getCurrentName());
    }

    /** The path Jackson recorded in a binding exception. */
    static String of(List<JsonMappingException.Reference> references) {
        String path = "";
        for (JsonMappingException.Reference reference : references) {
            path = reference.getFieldName() != null ? join(path, reference.getFieldName())
                    : path + "[" + Math.max(reference.getIndex(), 0) + "]";
        }
        return path;
    }

    static String join(String parent, String field) {
        return parent.isEmpty() ? field : parent + "." + field;
    }
}
