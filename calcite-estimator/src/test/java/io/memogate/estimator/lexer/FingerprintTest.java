package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FingerprintTest {

    private static String text(String sql) {
        return PostgresLexing.fingerprint(sql).text();
    }

    private static void same(String a, String b) {
        assertThat(PostgresLexing.fingerprint(a)).as("%s  vs  %s", a, b).isEqualTo(PostgresLexing.fingerprint(b));
        assertThat(PostgresLexing.fingerprint(a).hash()).isEqualTo(PostgresLexing.fingerprint(b).hash());
    }

    private static void different(String a, String b) {
        assertThat(PostgresLexing.fingerprint(a).hash()).as("%s  vs  %s", a, b).isNotEqualTo(PostgresLexing.fingerprint(b).hash());
    }

    @Test
    void normalizedText() {
        assertThat(text("SELECT a, B FROM T WHERE x = 1")).isEqualTo("select a, b from t where x = ?");
        assertThat(text("select \"MyCol\" from \"My Table\"")).isEqualTo("select \"MyCol\" from \"My Table\"");
        assertThat(text("select 'a', E'b', $$c$$, $q$d$q$, B'1', X'F', 1.5e3, $1, ?"))
                .isEqualTo("select ?, ?, ?, ?, ?, ?, ?, ?, ?");
        assertThat(text("select   a  /* c */ --d\n , b")).isEqualTo("select a, b");
        assertThat(text("select f(1, 2), count(*) from t")).isEqualTo("select f (?, ?), count (*) from t");
        assertThat(text("select a.b, c::int[], d[1:2] from s.t")).isEqualTo("select a.b, c::int[], d[? : ?] from s.t");
        assertThat(text("select -1, 2 - 3, x -4, (-5)")).isEqualTo("select ?, ? - ?, x - ?, (?)");
        assertThat(text("select j->>'k', j ?| array['a'], j ? 'b'"))
                .isEqualTo("select j ->> ?, j ?| array[?...], j ? ?");
        assertThat(text("select 1;")).isEqualTo("select ?;");
    }

    @Test
    void constantListsCollapse() {
        assertThat(text("select * from t where id in (1, 2, 3)")).isEqualTo("select * from t where id in (?...)");
        assertThat(text("select * from t where id not in ($1)")).isEqualTo("select * from t where id not in (?...)");
        assertThat(text("select * from t where id = any(array[1, -2])"))
                .isEqualTo("select * from t where id = any (array[?...])");
        assertThat(text("insert into t values (1, 'a'), (2, 'b')")).isEqualTo("insert into t values (?, ?), ...");
        assertThat(text("insert into t values (1, 'a')")).isEqualTo("insert into t values (?, ?), ...");
    }

    @Test
    void hashIsTheHashOfTheText() {
        for (String sql : new String[] {"select 1", "insert into t values (1), (2)", "", "select \"Ä\" from ü",
                "select a from b where c in (1,2) and d = any(array[$1])"}) {
            Fingerprint f = PostgresLexing.fingerprint(sql);
            assertThat(f.hash()).as(sql).isEqualTo(Fingerprint.hashOf(f.text()));
        }
    }

    @Test
    void literalsParametersWhitespaceCommentsAndCaseDoNotMatter() {
        same("select * from orders where id = 42 and name = 'x'",
                "SELECT *\n  FROM Orders -- by id\n WHERE ID = $1 AND name = /* n */ E'y\\'z'");
        same("select * from t where a in (1, 2, 3)", "select * from t where a in (4)");
        same("select * from t where a in ($1, $2)", "select * from t where a in (?, ?, ?, ?)");
        same("insert into t (a, b) values (1, 'x')", "insert into t (a, b) values (2, 'y'), (3, 'z'), (4, 'w')");
        same("select x from t limit 10 offset 20", "select x from t limit $1 offset $2");
        same("select a.b from t a", "select a . b from t a");
        same("select 'a'\n'b'", "select 'ab'");
        same("select x = -1 from t", "select x = 7 from t");
    }

    @Test
    void structureMatters() {
        different("select a from t", "select b from t");
        different("select a from t", "select a from u");
        different("select \"A\" from t", "select a from t");
        different("select a from t where x = 1", "select a from t where x > 1");
        different("select a from t where x in (1)", "select a from t where x = 1");
        different("select f(1)", "select f(1, 2)");
        different("insert into t values (1)", "insert into t values (1, 2)");
        different("select a from t join u on t.id = u.id", "select a from t left join u on t.id = u.id");
        different("select 1", "select 1; select 1");
        different("select a - 1 from t", "select a + 1 from t");
        different("select a from t where x in (1, y)", "select a from t where x in (1, z)");
        different("select a <= b", "select a < = b");
        different("select 1 from t", "select 1 from t for update");
    }

    @Test
    void listsWithOtherThingsThanConstantsAreKept() {
        assertThat(text("select * from t where a in (1, b, 3)")).isEqualTo("select * from t where a in (?, b, ?)");
        assertThat(text("select * from t where a in (select b from u)"))
                .isEqualTo("select * from t where a in (select b from u)");
        assertThat(text("select * from t where (a, b) in ((1, 2), (3, 4))"))
                .isEqualTo("select * from t where (a, b) in ((?, ?), (?, ?))");
        assertThat(text("values (1), (now())")).isEqualTo("values (?), (now ())");
        assertThat(text("insert into t values (now(), 1)")).isEqualTo("insert into t values (now (), ?)");
    }

    @Test
    void oversizedStatementsHashLengthAndSamples() {
        String big = "select " + "1, ".repeat(5000) + "1";
        Fingerprint f = Fingerprint.oversized(big, 0, big.length());
        assertThat(f.oversized()).isTrue();
        assertThat(f.text()).isEqualTo("/* oversized statement: " + big.length() + " characters */");
        assertThat(f).isEqualTo(Fingerprint.oversized(big, 0, big.length()));
        String longer = big + ", 1";
        assertThat(Fingerprint.oversized(longer, 0, longer.length())).isNotEqualTo(f);
        assertThat(PostgresLexing.fingerprint(big)).isNotEqualTo(f);
    }

    @Test
    void emptyAndUnterminatedStatementsHaveFingerprints() {
        assertThat(text("")).isEmpty();
        assertThat(text("select 'abc")).isEqualTo("select 'abc");
        different("select 'abc", "select 'abd");
    }
}
