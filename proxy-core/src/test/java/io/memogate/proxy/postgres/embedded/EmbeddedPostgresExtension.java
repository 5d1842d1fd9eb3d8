package io.memogate.proxy.postgres.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a running PostgreSQL 18 ({@link SharedPostgres}): declare a parameter of type
 * {@link EmbeddedPostgres}, {@link SelfSignedCertificate} or {@link SharedPostgres}.
 *
 * <p>One server serves the whole test JVM: it is started on first use and kept in the root context's
 * store, which JUnit closes after the last test, so starting it (about two seconds with the schema)
 * is paid once however many test classes use it.
 */
public final class EmbeddedPostgresExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(EmbeddedPostgresExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == EmbeddedPostgres.class || type == SelfSignedCertificate.class || type == SharedPostgres.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        SharedPostgres shared = shared(context);
        Class<?> type = parameter.getParameter().getType();
        if (type == EmbeddedPostgres.class) {
            return shared.server();
        }
        if (type == SelfSignedCertificate.class) {
            return shared.certificate();
        }
        if (type == SharedPostgres.class) {
            return shared;
        }
        throw new ParameterResolutionException("cannot resolve a parameter of type " + type.getName());
    }

    /** The shared server of this test JVM, started on the first call. */
    public static SharedPostgres shared(ExtensionContext context) {
        // getOrComputeIfAbsent is atomic per store, so concurrent test classes still start one server.
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(SharedPostgres.class, key -> start(), SharedPostgres.class);
    }

    private static SharedPostgres start() {
        try {
            return SharedPostgres.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the shared embedded PostgreSQL", e);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot prepare the shared embedded PostgreSQL: " + e.getMessage(), e);
        }
    }
}
