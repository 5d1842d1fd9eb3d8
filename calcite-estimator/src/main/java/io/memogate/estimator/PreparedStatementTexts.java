package io.memogate.estimator;

import java.util.Optional;

/**
 * Where {@link CompileEstimator} finds the text of a statement PREPAREd in SQL when it meets
 * {@code EXECUTE name}: the proxy remembers, per session, the PREPARE statements it forwarded. The text
 * may be the whole {@code PREPARE name AS query} or the query alone.
 */
@FunctionalInterface
public interface PreparedStatementTexts {

    /** Knows no prepared statement: EXECUTE bypasses with a reason saying so. */
    PreparedStatementTexts NONE = name -> Optional.empty();

    /** The text prepared under {@code name} (as the server folds it: unquoted names in lower case). */
    Optional<String> textOf(String name);
}
