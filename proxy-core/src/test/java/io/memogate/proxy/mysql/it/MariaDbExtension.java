package io.memogate.proxy.mysql.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a running {@link PrivateMariaDb}: one per test JVM, started on first use and stopped when JUnit
 * closes the root store after the last test. Tests are skipped, saying why, where mariadbd is not installed.
 */
public final class MariaDbExtension implements ParameterResolver, ExecutionCondition {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(MariaDbExtension.class);

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String missing = PrivateMariaDb.missing();
        return missing.isEmpty() ? ConditionEvaluationResult.enabled("mariadbd is installed")
                : ConditionEvaluationResult.disabled("no private MariaDB for the MySQL wing's tests: " + missing);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == PrivateMariaDb.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Running.class, key -> start(), Running.class)
                .server();
    }

    private static Running start() {
        try {
            return new Running(PrivateMariaDb.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the private MariaDB", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the private MariaDB", e);
        }
    }

    /** Closed by JUnit with the root store. */
    private record Running(PrivateMariaDb server) implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        @Override
        public void close() throws Exception {
            server.close();
        }
    }
}
