package io.memogate.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.estimator.postgres.PostgresDialect;
import io.memogate.proxy.postgres.calibrate.CoefficientsFile;
import io.memogate.proxy.postgres.calibrate.PlannerMemory;
import io.memogate.proxy.postgres.catalog.IndexCatalog;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * `memogate calibrate` end to end against PostgreSQL 18: the synthetic shapes and a directory of
 * warehouse queries over tables this test creates (with a statement that names a missing table, one
 * that is not SQL, and one that is not planned among them), then the file it wrote, loaded and used:
 * the fitted estimator must be within 2x of the planner on the warehouse statements above 1 MB.
 *
 * <p>The 2x check leaves out the statements with a LIMIT, which are measured and fitted like the rest.
 * The memory model has one cost per first-rows join pair, and on these tables that cost depends on the
 * shape: a star planned for its first rows took 4-7 times the memory of the same star without LIMIT,
 * a clique about twice. The fit settles between them (in the first runs, about 8 kB per pair against
 * 3.9 kB for a plain pair), so the warehouse stars with LIMIT came out at 0.2-0.4x. That is the model's
 * limit, not the fit's; calibration reports it in its table rather than hiding it.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class CalibrateCommandIT {

    private static final String DATABASE = "warehouse";
    private static final String[] DIMENSIONS = {"day", "store", "product", "customer", "promotion", "supplier",
        "warehouse", "channel", "currency"};

    @BeforeAll
    static void warehouse(EmbeddedPostgres pg) throws Exception {
        if (!pg.createDatabaseIfMissing(DATABASE, "postgres")) {
            return;
        }
        List<String> ddl = new ArrayList<>();
        StringBuilder fact = new StringBuilder("create table sales (id int primary key, quantity int, amount numeric");
        for (String d : DIMENSIONS) {
            ddl.add("create table " + d + " (id int primary key, name text, region int, parent int)");
            ddl.add("insert into " + d + " select g, 'n' || g, g % 7, g % 20 from generate_series(1, 500) g");
            fact.append(", ").append(d).append("_id int");
        }
        ddl.add(fact.append(")").toString());
        ddl.add("insert into sales select g, g % 9, g % 100, " + "g % 500, ".repeat(DIMENSIONS.length - 1)
                + "g % 500 from generate_series(1, 20000) g");
        for (String d : DIMENSIONS) {
            ddl.add("create index on sales (" + d + "_id)");
        }
        ddl.add("analyze");
        pg.execute(DATABASE, ddl.toArray(String[]::new));
    }

    @Test
    void fitsWritesAndTheFileGivesEstimatesWithinTwice(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        Path corpus = Files.createDirectories(dir.resolve("queries"));
        List<String> queries = warehouseQueries();
        Files.writeString(corpus.resolve("warehouse.sql"), String.join(";\n", queries) + ";\n");
        Files.writeString(corpus.resolve("broken.sql"), """
                select * from sales s join no_such_table n on n.id = s.id join day d on d.id = s.day_id;
                select s.id from sales s, day d where d.id = s.day_id and and s.id = 1;
                vacuum sales;
                """);
        Path output = dir.resolve("coefficients.yaml");

        Run run = calibrate("--url", pg.jdbcUrl(DATABASE), "--user", pg.superuser(),
                "--password", pg.superuserPassword(), "--corpus", corpus.toString(), "--output", output.toString(),
                "--builtin", "synthetic", "--setting", "join_collapse_limit=12", "--setting", "from_collapse_limit=12",
                "--setting", "geqo_threshold=14");
        System.out.println(run.out());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("skipped queries/broken.sql#1: the server refused it: ERROR: relation \"no_such_table\"")
                .contains("skipped queries/broken.sql#2: the server refused it: ERROR: syntax error")
                .contains("star-10-limit", "queries/warehouse.sql#1", "queries/warehouse.sql#16")
                .containsPattern("after: +Spearman");
        assertThat(Files.readString(output)).startsWith("# Memogate planner-memory coefficients")
                .contains("# server: PostgreSQL 18");

        MemoryCoefficients fitted = CoefficientsFile.read(output);
        assertThat(fitted).isNotEqualTo(MemoryCoefficients.DEFAULTS);
        CompileEstimator estimator = new CompileEstimator(new PostgresDialect(fitted),
                100, CompileEstimator.DEFAULT_MAX_PARSE_DEPTH);
        PlannerSettings settings = PlannerSettings.DEFAULTS.with("join_collapse_limit", "12")
                .with("from_collapse_limit", "12").with("geqo_threshold", "14");
        List<String> failures = new ArrayList<>();
        int aboveOneMegabyte = 0;
        try (Connection connection = pg.connect(DATABASE)) {
            // As calibrate and the proxy with broker.monitor estimate: with the database's indexes.
            IndexedColumns indexes = IndexCatalog.read(connection);
            PlannerMemory memory = new PlannerMemory(connection);
            memory.set("join_collapse_limit", "12");
            memory.set("from_collapse_limit", "12");
            memory.set("geqo_threshold", "14");
            for (String sql : queries) {
                if (sql.contains(" limit ")) {
                    continue;
                }
                long measured = memory.measure(sql);
                if (measured <= 1 << 20) {
                    continue;
                }
                aboveOneMegabyte++;
                CompileEstimate estimate = estimator.estimate(sql, settings, PreparedStatementTexts.NONE,
                        Catalog.of(indexes));
                double ratio = (double) estimate.estimatedBytes() / measured;
                if (ratio < 0.5 || ratio > 2) {
                    failures.add(String.format("%.2fx (estimated %d, measured %d): %s", ratio,
                            estimate.estimatedBytes(), measured, sql));
                }
            }
        }
        assertThat(aboveOneMegabyte).as("warehouse statements above 1 MB").isGreaterThanOrEqualTo(4);
        assertThat(failures).as("fitted estimates off by more than 2x").isEmpty();
    }

    /**
     * TPC-H and TPC-DS come along on temporary tables, measured and then dropped before the user's own
     * statements: the warehouse's {@code store} (not TPC-DS's) is the one they plan against, and no table
     * is left behind.
     */
    @Test
    void tpcCorporaAreMeasuredOnTemporaryTablesThatLeaveNothingBehind(EmbeddedPostgres pg, @TempDir Path dir)
            throws Exception {
        Path corpus = Files.createDirectories(dir.resolve("mine"));
        // store.name and store.region exist in the warehouse's store only, not in TPC-DS's.
        Files.writeString(corpus.resolve("own.sql"), "select st.name from sales s join store st on st.id = s.store_id"
                + " join day d on d.id = s.day_id where st.region = 2;\n");
        Path output = dir.resolve("coefficients.yaml");

        Run run = calibrate("--url", pg.jdbcUrl(DATABASE), "--user", pg.superuser(),
                "--password", pg.superuserPassword(), "--builtin", "tpch,tpcds", "--corpus", corpus.toString(),
                "--output", output.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("tpch/q5", "tpch/q21", "tpcds/q72", "tpcds/q14a", "mine/own.sql#1")
                .doesNotContain("skipped mine/own.sql#1").doesNotContain("synthetic").doesNotContain("star-10");
        assertThat(CoefficientsFile.read(output)).isNotEqualTo(MemoryCoefficients.DEFAULTS);
        try (Connection connection = pg.connect(DATABASE); Statement statement = connection.createStatement();
             ResultSet left = statement.executeQuery("select count(*) from pg_class where relname in"
                     + " ('lineitem', 'nation', 'store_sales', 'date_dim', 'revenue')")) {
            left.next();
            assertThat(left.getInt(1)).as("TPC tables or views left in the database").isZero();
        }
    }

    /** `estimate --catalog-url` counts the indexes of the database it names, as calibrate and the proxy do. */
    @Test
    void estimateReadsTheIndexesOfTheDatabaseItIsPointedAt(EmbeddedPostgres pg) throws Exception {
        String star = warehouseQueries().get(6);
        long withIndexes;
        try (Connection connection = pg.connect(DATABASE)) {
            withIndexes = new CompileEstimator().estimate(star, PlannerSettings.DEFAULTS, PreparedStatementTexts.NONE,
                    Catalog.of(IndexCatalog.read(connection))).estimatedBytes();
        }
        assertThat(withIndexes).isGreaterThan(new CompileEstimator().estimate(star, PlannerSettings.DEFAULTS)
                .estimatedBytes());

        Run run = command("estimate", "--catalog-url", pg.jdbcUrl(DATABASE), "--user", pg.superuser(),
                "--password", pg.superuserPassword(), star);
        Run refused = command("estimate", "--catalog-url", pg.jdbcUrl("no_such_database"), "--user", pg.superuser(),
                "--password", pg.superuserPassword(), star);

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("\"estimatedBytes\":" + withIndexes + ",");
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("memogate: estimate: cannot read the catalog at "
                + pg.jdbcUrl("no_such_database")).contains("\"no_such_database\" does not exist");
    }

    @Test
    void anUnknownBuiltInCorpusIsNamed(@TempDir Path dir) {
        Run run = calibrate("--url", "jdbc:postgresql://127.0.0.1:1/none", "--builtin", "tpch,tpce",
                "--output", dir.resolve("c.yaml").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--builtin: unknown corpus 'tpce' (expected synthetic, tpch, tpcds, or none alone)");
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run calibrate(String... arguments) {
        String[] all = new String[arguments.length + 1];
        all[0] = "calibrate";
        System.arraycopy(arguments, 0, all, 1, arguments.length);
        return command(all);
    }

    private static Run command(String... arguments) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine command = MemogateCommand.commandLine();
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));
        int exit = command.execute(arguments);
        return new Run(exit, out.toString(), err.toString());
    }

    /**
     * Star joins of the fact table with 4 to 9 dimensions, as FROM lists and as JOINs, some with a
     * snowflaked dimension, a sub-query or a LIMIT: the shapes of reporting queries.
     */
    private static List<String> warehouseQueries() {
        List<String> sql = new ArrayList<>();
        for (int n = 4; n <= DIMENSIONS.length; n++) {
            StringBuilder from = new StringBuilder("select s.amount from sales s");
            StringBuilder where = new StringBuilder(" where s.quantity > 2");
            StringBuilder joins = new StringBuilder("select d0.name, sum(s.amount) from sales s");
            for (int i = 0; i < n; i++) {
                String d = DIMENSIONS[i];
                from.append(", ").append(d).append(" d").append(i);
                where.append(" and d").append(i).append(".id = s.").append(d).append("_id");
                joins.append(" join ").append(d).append(" d").append(i).append(" on d").append(i).append(".id = s.")
                        .append(d).append("_id");
            }
            sql.add(from.append(where).toString());
            sql.add(joins.append(" where d0.region = 3 group by d0.name").toString());
            if (n >= 6) {
                sql.add(from + " and d1.parent in (select p.id from product p where p.region = 1) limit 20");
            }
        }
        return sql;
    }
}
