package io.memogate.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs Memogate inside the test JVM, in front of a database the tests already have, for the test class: started
 * before its first test, stopped after its last, with {@link MemogateSettings#defaults()}. Tests get the running
 * proxy as a {@link MemogateProxy} parameter. For settings from Java (tier limits, fractions, target), or a
 * database the test class starts itself, register a {@link MemogateExtension} instead.
 * <pre>{@code
 * @Memogate(urlFromEnvironment = "DATABASE_URL")
 * class OrderQueriesIT {
 *     @Test
 *     void ordersPageNeedsNoLargeGateway(MemogateProxy memogate) throws SQLException { ... }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(MemogateExtension.class)
public @interface Memogate {

    /** The database's pgjdbc URL, {@code jdbc:postgresql://host:port/database}. */
    String url() default "";

    /** An environment variable (or, when none is set, a system property) that holds the URL. */
    String urlFromEnvironment() default "";
}
