package io.memogate.bench.accuracy;

import io.memogate.bench.storm.load.QueryTemplates;
import io.memogate.bench.storm.load.Template;
import io.memogate.proxy.postgres.calibrate.CorpusStatement;
import io.memogate.proxy.postgres.calibrate.tpc.TpcdsDatabase;
import io.memogate.proxy.postgres.calibrate.tpc.TpchDatabase;
import io.memogate.proxy.postgres.embedded.DemoSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** The report's corpora: synthetic shapes, TPC-H's 22 queries, TPC-DS's 99 and the storm's warehouse reports. */
final class Corpora {

    static final String TPCH_DATABASE = "tpch";
    static final String TPCDS_DATABASE = "tpcds";
    static final String SYNTHETIC_DATABASE = "synthetic";
    static final String SYNTHETIC_INDEXED_DATABASE = "synthetic_indexed";
    static final String RANDOM_DATABASE = "random_joins";
    /** What the random corpus of each seed is named when a run holds several: this and the seed. */
    static final String RANDOM_SEED_PREFIX = "random-seed";
    private static final Pattern TRAILING_LIMIT = Pattern.compile("\\s+LIMIT\\s+\\d+\\s*$", Pattern.CASE_INSENSITIVE);

    private Corpora() {
    }

    /** Chains, cycles, stars, cliques and snowflakes of 4 to 16 tables, stars and snowflakes also with a LIMIT. */
    static Corpus synthetic() {
        return new Corpus("synthetic", SyntheticDatabase.describe(), SYNTHETIC_DATABASE, List.of(), SyntheticShapes.all());
    }

    /**
     * The synthetic shapes again over the same tables with every join column indexed, as the index experiment
     * of bench/log/accuracy.md: what the estimate's parameterized index scans are checked against. Cliques of more
     * than 8 tables are left out: with every column indexed they would outgrow the emulated host.
     */
    static Corpus syntheticIndexed() {
        List<String> indexes = new ArrayList<>();
        for (int t = 0; t < SyntheticDatabase.TABLES; t++) {
            for (int k = 0; k < SyntheticDatabase.TABLES; k++) {
                if (k != t) {
                    indexes.add("CREATE INDEX ON s" + t + " (k" + k + ")");
                }
            }
        }
        List<Corpus.Member> shapes = SyntheticShapes.all().stream()
                .filter(m -> !m.id().matches("clique(9|1[0-9])")).toList();
        return new Corpus("synthetic-indexed", SyntheticDatabase.describe() + ", every join column indexed",
                SYNTHETIC_INDEXED_DATABASE, indexes, shapes);
    }

    /**
     * {@code count} random statements with outer joins, sub-queries, CTEs, unions and LATERAL over the synthetic
     * tables, drawn from {@code seed} ({@link RandomJoins}).
     */
    static Corpus random(long seed, int count) {
        return random(seed, count, "random");
    }

    /** The same, named {@code name}: several seeds in one run are corpora of their own, all on the one database. */
    static Corpus random(long seed, int count, String name) {
        return new Corpus(name, SyntheticDatabase.describe() + "; " + count + " random joins of seed " + seed,
                RANDOM_DATABASE, List.of(), RandomJoins.statements(seed, count));
    }

    /** trino's copies of the 22 queries, with their substitution parameters' validation values. */
    static Corpus tpch() {
        return new Corpus("tpch", TpchDatabase.describe(), TPCH_DATABASE, TpchDatabase.setup(),
                members(TpchDatabase.queries()));
    }

    /** hydromatic's 99 query templates, their parameters drawn with a fixed seed per query. */
    static Corpus tpcds() {
        return new Corpus("tpcds", TpcdsDatabase.describe(), TPCDS_DATABASE, List.of(),
                members(TpcdsDatabase.queries()));
    }

    private static List<Corpus.Member> members(List<CorpusStatement> statements) {
        return statements.stream().map(s -> new Corpus.Member(s.name(), s.sql())).toList();
    }

    /** The storm's ten reports over the demo warehouse, as written (with LIMIT) and without their LIMIT. */
    static Corpus warehouse() {
        List<Corpus.Member> members = new ArrayList<>();
        for (Template template : QueryTemplates.load()) {
            String sql = template.render(0, 0, 4);
            members.add(new Corpus.Member(template.name(), sql));
            String unlimited = TRAILING_LIMIT.matcher(sql).replaceFirst("");
            if (!unlimited.equals(sql)) {
                members.add(new Corpus.Member(template.name() + "-nolimit", unlimited));
            }
        }
        return new Corpus("warehouse", "the demo warehouse (bin/memogate demo): 31 tables, 6,000 sales, foreign-key"
                + " indexes, analyzed", DemoSchema.DATABASE, List.of(), members);
    }
}
