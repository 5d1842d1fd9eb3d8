package io.memogate.bench.accuracy;

import java.util.List;

/**
 * Statements to plan on one database.
 *
 * @param name how the report names it
 * @param description its schema and data, for the report
 * @param database the database its statements run in
 * @param setup statements the corpus needs first (TPC-H's view for query 15)
 * @param statements what is planned and estimated
 */
record Corpus(String name, String description, String database, List<String> setup, List<Member> statements) {

    /** One statement, named so a reader can find it (tpch q15, tpcds q14b, warehouse t01). */
    record Member(String id, String sql) {
    }

    Corpus {
        setup = List.copyOf(setup);
        statements = List.copyOf(statements);
    }
}
