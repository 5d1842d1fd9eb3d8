package io.memogate.proxy.postgres.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlScriptTest {

    @Test
    void splitsAtTopLevelSemicolonsAndDropsCommentOnlyPieces() {
        assertThat(SqlScript.split("""
                -- header comment; not a statement
                CREATE TABLE t (a int);
                INSERT INTO t VALUES (1);
                /* trailing; comment */
                """))
                .containsExactly("-- header comment; not a statement\nCREATE TABLE t (a int)", "INSERT INTO t VALUES (1)");
    }

    @Test
    void semicolonsInsideQuotesAndCommentsDoNotSplit() {
        assertThat(SqlScript.split("""
                SELECT 'a;b', 'it''s; fine', "odd;name" FROM t -- note; here
                WHERE x = 1 /* block; comment */;
                SELECT 2
                """))
                .containsExactly("SELECT 'a;b', 'it''s; fine', \"odd;name\" FROM t -- note; here\n"
                        + "WHERE x = 1 /* block; comment */", "SELECT 2");
    }

    @Test
    void dollarQuotedBodiesStayWholeButParametersAreNotQuotes() {
        assertThat(SqlScript.split("""
                CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;
                DO $$ BEGIN PERFORM 1; END $$;
                PREPARE p AS SELECT $1; SELECT 3;
                """))
                .containsExactly(
                        "CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql",
                        "DO $$ BEGIN PERFORM 1; END $$",
                        "PREPARE p AS SELECT $1",
                        "SELECT 3");
    }

    @Test
    void theDemoResourcesSplitIntoStatements() {
        assertThat(SqlScript.fromResource(DemoSchema.class, "demo-schema.sql"))
                .hasSizeGreaterThan(60)
                .allSatisfy(statement -> assertThat(statement).doesNotEndWith(";"))
                .last().asString().startsWith("-- Statistics");
        assertThat(DemoSchema.exampleQueries()).hasSize(2).allSatisfy(query -> assertThat(query).contains("FROM sales"));
    }
}
