package io.memogate.bench.accuracy;

import io.memogate.bench.storm.load.QueryTemplates;
import io.memogate.bench.storm.load.Template;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.StatementAnalysis;
import io.memogate.estimator.lexer.StatementKind;
import io.memogate.proxy.embedded.DemoSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import net.hydromatic.tpcds.query.Query;

/** The report's corpora: synthetic shapes, TPC-H's 22 queries, TPC-DS's 99 and the storm's warehouse reports. */
final class Corpora {

    static final String TPCH_DATABASE = "tpch";
    static final String TPCDS_DATABASE = "tpcds";
    static final String SYNTHETIC_DATABASE = "synthetic";
    private static final Pattern TRAILING_LIMIT = Pattern.compile("\\s+LIMIT\\s+\\d+\\s*$", Pattern.CASE_INSENSITIVE);
    private static final LexicalAnalyzer LEXER = new LexicalAnalyzer();

    private Corpora() {
    }

    /** Chains, cycles, stars, cliques and snowflakes of 4 to 16 tables, stars and snowflakes also with a LIMIT. */
    static Corpus synthetic() {
        return new Corpus("synthetic", SyntheticDatabase.describe(), SYNTHETIC_DATABASE, List.of(), SyntheticShapes.all());
    }

    /** trino's copies of the 22 queries, with their substitution parameters' validation values. */
    static Corpus tpch() {
        List<String> setup = new ArrayList<>();
        List<Corpus.Member> members = new ArrayList<>();
        for (int q = 1; q <= 22; q++) {
            String text = resource("/io/trino/tpch/queries/q" + q + ".sql");
            for (String sql : split(text)) {
                if (isQuery(sql)) {
                    members.add(new Corpus.Member("q" + q, sql));
                } else if (!sql.regionMatches(true, 0, "DROP", 0, 4)) {
                    setup.add(sql); // q15's view
                }
            }
        }
        return new Corpus("tpch", TpchDatabase.describe(), TPCH_DATABASE, setup, members);
    }

    /** hydromatic's 99 query templates, their parameters drawn with a fixed seed per query. */
    static Corpus tpcds() {
        List<Corpus.Member> members = new ArrayList<>();
        for (Query query : Query.values()) {
            List<String> statements = split(TpcdsQueryText.forPostgres(query.sql(new Random(query.id))));
            for (int i = 0; i < statements.size(); i++) {
                String id = "q" + query.id + (statements.size() > 1 ? String.valueOf((char) ('a' + i)) : "");
                members.add(new Corpus.Member(id, statements.get(i)));
            }
        }
        return new Corpus("tpcds", TpcdsDatabase.describe(), TPCDS_DATABASE, List.of(), members);
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

    private static boolean isQuery(String sql) {
        StatementKind kind = LEXER.analyze(sql).statements().get(0).kind();
        return kind == StatementKind.SELECT || kind == StatementKind.WITH;
    }

    private static List<String> split(String text) {
        List<String> statements = new ArrayList<>();
        for (StatementAnalysis statement : LEXER.analyze(text).statements()) {
            String sql = text.substring(statement.span().start(), statement.span().end()).strip();
            if (sql.endsWith(";")) {
                sql = sql.substring(0, sql.length() - 1).strip();
            }
            if (statement.kind() != StatementKind.EMPTY && !sql.isEmpty()) {
                statements.add(sql);
            }
        }
        return statements;
    }

    private static String resource(String name) {
        try (InputStream in = Corpora.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }
}
