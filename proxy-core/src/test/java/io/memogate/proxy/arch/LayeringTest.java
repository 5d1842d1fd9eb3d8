package io.memogate.proxy.arch;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.RoutineDefinitions;
import org.junit.jupiter.api.Test;

/**
 * The layout's promises, checked over the compiled classes: a protocol-neutral core that no wing leaks
 * into (a second protocol is a new folder beside {@code pg/}, not a fork), a broker with no JDBC driver,
 * and an estimator that knows nothing of Netty or of the broker, whose shared skeleton names no server's
 * dialect (a second server is a new folder beside {@code estimator/postgres/}).
 */
class LayeringTest {

    private static final JavaClasses MEMOGATE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.memogate");

    /** What every protocol shares; only the CLI wiring ({@code cli}) may name a wing. */
    private static final String[] CORE = {"io.memogate.proxy.session..", "io.memogate.proxy.server..",
            "io.memogate.proxy.admission..", "io.memogate.proxy.admin..", "io.memogate.proxy.config..",
            "io.memogate.proxy.reload..", "io.memogate.proxy.metrics..", "io.memogate.proxy.tls.."};

    /** The estimator's packages every server's dialect shares. */
    private static final String[] ESTIMATOR_SHARED = {"io.memogate.estimator", "io.memogate.estimator.lexer..",
            "io.memogate.estimator.graph..", "io.memogate.estimator.planner..", "io.memogate.estimator.calcite..",
            "io.memogate.estimator.dialect.."};

    @Test
    void theSessionCoreImportsNoWing() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.proxy.pg..",
                        "io.memogate.proxy.mysql..", "io.memogate.proxy.tds..")
                .because("the core is protocol-neutral: each protocol plugs in as a ProtocolWing, picked by the CLI")
                .check(MEMOGATE);
    }

    @Test
    void theWingsDoNotLeanOnEachOther() {
        noClasses().that().resideInAPackage("io.memogate.proxy.mysql..")
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.proxy.pg..")
                .because("what two wings share belongs in the core, not in one wing that the other borrows from")
                .check(MEMOGATE);
        noClasses().that().resideInAPackage("io.memogate.proxy.pg..")
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.proxy.mysql..", "io.memogate.proxy.tds..")
                .check(MEMOGATE);
        noClasses().that().resideInAPackage("io.memogate.proxy.tds..")
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.proxy.pg..", "io.memogate.proxy.mysql..")
                .check(MEMOGATE);
        noClasses().that().resideInAPackage("io.memogate.proxy.mysql..")
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.proxy.tds..")
                .check(MEMOGATE);
    }

    /**
     * The admission of a server reaches what is PostgreSQL's (its catalog reader, its probe, its planner
     * settings, its estimator) only through the server's {@code ServerKind} and {@code ServerCatalogs}, which
     * the CLI wiring picks. One exception, a step still to take: the configuration's coefficients file and the
     * broker's TLS check are PostgreSQL's ({@code config}) until the configuration can name a server's kind.
     */
    @Test
    void theAdmissionCoreReachesPostgresOnlyThroughItsServerKind() {
        noClasses().that().resideInAnyPackage(CORE).and().resideOutsideOfPackage("io.memogate.proxy.config..")
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.proxy.postgres..",
                        "io.memogate.broker.probe.postgres..", "io.memogate.estimator.postgres..",
                        "io.memogate.estimator.mysql..", "io.memogate.estimator.sqlserver..")
                .because("a server's kind is a value the wiring gives the core, so that a second kind is a new folder")
                .check(MEMOGATE);
    }

    @Test
    void theBrokerOwnsNoJdbcDriver() {
        noClasses().that().resideInAPackage("io.memogate.broker..")
                .and().resideOutsideOfPackages("io.memogate.broker.probe.postgres..", "io.memogate.broker.probe.mysql..",
                        "io.memogate.broker.probe.sqlserver..", "io.memogate.broker.probe.jdbc..")
                .should().dependOnClassesThat().resideInAnyPackage("org.postgresql..", "org.mariadb..",
                        "com.microsoft.sqlserver..", "java.sql..")
                .because("each server kind's probe, in a module of its own, owns its driver")
                .check(MEMOGATE);
        noClasses().that().resideInAPackage("io.memogate.broker.probe.jdbc..")
                .should().dependOnClassesThat().resideInAnyPackage("org.postgresql..", "org.mariadb..",
                        "com.microsoft.sqlserver..")
                .because("the probes' shared monitoring connection speaks java.sql, never a driver's own API")
                .check(MEMOGATE);
    }

    @Test
    void theEstimatorKnowsNeitherNettyNorTheBroker() {
        noClasses().that().resideInAPackage("io.memogate.estimator..")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "io.memogate.broker..",
                        "io.memogate.proxy..")
                .check(MEMOGATE);
    }

    @Test
    void theEstimatorsSharedPackagesNameNoDialect() {
        noClasses().that().resideInAnyPackage(ESTIMATOR_SHARED)
                // Left out, as the two places that pick PostgreSQL where no dialect is at hand: the
                // estimator's no-argument constructor (PostgreSQL, the default server), and the catalog's
                // routines, which a reader of pg_proc builds without a dialect, their bodies read as PL/pgSQL.
                .and(not(belongToAnyOf(CompileEstimator.class, RoutineDefinitions.class)))
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.estimator.postgres..")
                .because("a dialect plugs into the estimator through estimator.dialect.Dialect and its lexical rules")
                .check(MEMOGATE);
        noClasses().that().resideInAnyPackage(ESTIMATOR_SHARED)
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.estimator.mysql..",
                        "io.memogate.estimator.sqlserver..")
                .because("a dialect plugs into the estimator through estimator.dialect.Dialect and its lexical rules")
                .check(MEMOGATE);
    }

    @Test
    void theDialectsDoNotLeanOnEachOther() {
        noClasses().that().resideInAPackage("io.memogate.estimator.mysql..")
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.estimator.postgres..",
                        "io.memogate.estimator.sqlserver..")
                .because("what two dialects share belongs in the estimator's shared packages")
                .check(MEMOGATE);
        noClasses().that().resideInAPackage("io.memogate.estimator.postgres..")
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.estimator.mysql..",
                        "io.memogate.estimator.sqlserver..")
                .check(MEMOGATE);
        noClasses().that().resideInAPackage("io.memogate.estimator.sqlserver..")
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.estimator.postgres..",
                        "io.memogate.estimator.mysql..")
                .check(MEMOGATE);
    }

    @Test
    void eachWingReadsOnlyItsOwnServersDialect() {
        noClasses().that().resideInAnyPackage("io.memogate.proxy.mysql..")
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.estimator.postgres..",
                        "io.memogate.proxy.postgres..", "io.memogate.estimator.sqlserver..")
                .check(MEMOGATE);
        noClasses().that().resideInAnyPackage("io.memogate.proxy.pg..", "io.memogate.proxy.postgres..")
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.estimator.mysql..",
                        "io.memogate.estimator.sqlserver..")
                .check(MEMOGATE);
        noClasses().that().resideInAnyPackage("io.memogate.proxy.tds..")
                .should().dependOnClassesThat().resideInAnyPackage("io.memogate.estimator.mysql..",
                        "io.memogate.estimator.postgres..", "io.memogate.proxy.postgres..")
                .check(MEMOGATE);
    }
}
