package io.memogate.proxy.it.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A random but valid stream of what a client sends after logging in: simple Queries (single and
 * multi-statement, transaction control, errors), extended-protocol batches (named and unnamed statements
 * and portals, Describe, Execute with a row limit, Close, Flush, with or without their Sync) and COPY FROM
 * STDIN through either protocol, ended with CopyDone or CopyFail. Every statement that writes inserts ids
 * no other statement of the case inserts, into the table {@code t} of the run's own schema, and answers
 * with {@code ins:<id>}, so that what ran can be counted and what the client was told can be checked.
 */
final class CaseGenerator {

    /** Each insert answers its id as a row, so the client's replies say which ids it was told about. */
    static final String INSERT_ANSWER_PREFIX = "ins:";

    private static final String INSERT_PARAMETER = "insert into t values ($1) returning '" + INSERT_ANSWER_PREFIX
            + "' || id";
    private static final String[] STATEMENT_NAMES = {"", "", "s1", "s2"};
    private static final String[] PORTAL_NAMES = {"", "", "p1"};
    private static final int INT4 = 23;

    private final Random random;
    private final List<byte[]> messages = new ArrayList<>();
    private final List<String> labels = new ArrayList<>();
    private int nextId = 1;

    private CaseGenerator(Random random) {
        this.random = random;
    }

    /** The messages of one case, in order, each with a short label for the failure report. */
    record Script(List<byte[]> messages, List<String> labels) {}

    static Script generate(Random random) {
        CaseGenerator generator = new CaseGenerator(random);
        int steps = 1 + random.nextInt(8);
        for (int i = 0; i < steps; i++) {
            generator.step();
        }
        if (random.nextInt(100) < 85) {
            generator.add(FrontendMessages.terminate(), "Terminate");
        }
        return new Script(generator.messages, generator.labels);
    }

    private void step() {
        int pick = random.nextInt(100);
        if (pick < 35) {
            simpleQuery();
        } else if (pick < 70) {
            extendedBatch();
        } else if (pick < 85) {
            copyIn(random.nextBoolean());
        } else if (pick < 92) {
            add(FrontendMessages.sync(), "Sync");
        } else {
            add(FrontendMessages.flush(), "Flush");
        }
    }

    private void simpleQuery() {
        int statements = random.nextInt(4) == 0 ? 2 + random.nextInt(3) : 1;
        List<String> sql = new ArrayList<>();
        for (int i = 0; i < statements; i++) {
            sql.add(statement());
        }
        String text = String.join("; ", sql);
        if (random.nextInt(20) == 0) {
            text = random.nextBoolean() ? "" : ";"; // EmptyQueryResponse
        }
        add(FrontendMessages.query(text), "Query " + text);
    }

    /** One SQL statement of the simple protocol, without parameters. */
    private String statement() {
        int pick = random.nextInt(100);
        if (pick < 40) {
            return insert(nextId++);
        } else if (pick < 55) {
            return random.nextBoolean() ? "select " + random.nextInt(1000) : "select count(*) from t";
        } else if (pick < 62) {
            return "select generate_series(1, 3)";
        } else if (pick < 80) {
            return new String[] {"select 1/0", "selec 1", "insert into t values ('x')"}[random.nextInt(3)];
        } else {
            return new String[] {"begin", "commit", "rollback"}[random.nextInt(3)];
        }
    }

    private static String insert(int id) {
        return "insert into t values (" + id + ") returning '" + INSERT_ANSWER_PREFIX + "' || id";
    }

    /** Parse, Bind, Describe, Execute, Close in the orders drivers use them, then (mostly) Sync. */
    private void extendedBatch() {
        int executions = 1 + random.nextInt(3);
        for (int i = 0; i < executions; i++) {
            String statement = STATEMENT_NAMES[random.nextInt(STATEMENT_NAMES.length)];
            String portal = PORTAL_NAMES[random.nextInt(PORTAL_NAMES.length)];
            boolean insert = random.nextInt(100) < 45;
            String sql = insert ? INSERT_PARAMETER : statement();
            if (random.nextInt(100) < 85) { // else the statement of that name may or may not exist
                add(FrontendMessages.parse(statement, sql, insert && random.nextBoolean() ? new int[] {INT4}
                        : new int[0]), "Parse " + statement + ": " + sql);
            }
            List<String> parameters = insert ? List.of(String.valueOf(nextId++)) : List.of();
            add(FrontendMessages.bind(portal, statement, parameters), "Bind " + portal + " <- " + statement
                    + " " + parameters);
            if (random.nextInt(4) == 0) {
                boolean ofPortal = random.nextBoolean();
                add(FrontendMessages.describe(ofPortal ? 'P' : 'S', ofPortal ? portal : statement),
                        "Describe " + (ofPortal ? "portal " + portal : "statement " + statement));
            }
            int maxRows = random.nextInt(4) == 0 ? 1 : 0;
            add(FrontendMessages.execute(portal, maxRows), "Execute " + portal + " max " + maxRows);
            if (maxRows > 0 && random.nextBoolean()) {
                add(FrontendMessages.execute(portal, 0), "Execute " + portal + " (the rest)");
            }
            if (random.nextInt(5) == 0) {
                boolean ofPortal = random.nextBoolean();
                add(FrontendMessages.close(ofPortal ? 'P' : 'S', ofPortal ? portal : statement),
                        "Close " + (ofPortal ? "portal " + portal : "statement " + statement));
            }
            if (random.nextInt(6) == 0) {
                add(FrontendMessages.flush(), "Flush");
            }
        }
        if (random.nextInt(100) < 90) {
            add(FrontendMessages.sync(), "Sync");
        }
    }

    /** COPY t FROM STDIN by a Query or by Parse/Bind/Execute, its rows, then CopyDone or CopyFail. */
    private void copyIn(boolean extended) {
        String sql = "copy t from stdin";
        if (extended) {
            add(FrontendMessages.parse("", sql), "Parse: " + sql);
            add(FrontendMessages.bind("", "", List.of()), "Bind");
            add(FrontendMessages.execute("", 0), "Execute");
            if (random.nextBoolean()) {
                add(FrontendMessages.sync(), "Sync before the data, as libpq sends it (read in copy mode, ignored)");
            }
        } else {
            add(FrontendMessages.query(sql), "Query " + sql);
        }
        int rows = random.nextInt(5);
        for (int i = 0; i < rows; i++) {
            String row = random.nextInt(12) == 0 ? "not a number\n" : nextId++ + "\n";
            add(FrontendMessages.copyData(row), "CopyData " + row.strip());
            // PostgreSQL ignores a Flush or Sync during COPY data; but a Sync it reads after a row that failed
            // is answered with a ReadyForQuery (one draw for both, so that the earlier seeds' cases stay as they were).
            int inCopy = random.nextInt(10);
            if (inCopy == 0) {
                add(FrontendMessages.flush(), "Flush in COPY");
            } else if (inCopy == 1) {
                add(FrontendMessages.sync(), "Sync in COPY");
            }
        }
        if (random.nextInt(5) == 0) {
            add(FrontendMessages.copyFail("fuzz"), "CopyFail");
        } else {
            add(FrontendMessages.copyDone(), "CopyDone");
        }
        if (extended) {
            add(FrontendMessages.sync(), "Sync");
        }
    }

    private void add(byte[] message, String label) {
        messages.add(message);
        labels.add(label);
    }
}
