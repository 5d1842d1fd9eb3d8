package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Property: rewriting a statement with other whitespace, comments, key word case, constants, parameter
 * styles and constant-list lengths keeps its fingerprint; renaming one identifier changes it. Each base
 * query is rewritten 300 times from a fixed seed, so a failure reproduces.
 */
class FingerprintStabilityTest {

    private static final String[] SEPARATORS = {" ", "  ", "\n", "\t\r\n ", " /* c */ ", "/* a /* nested */ b */",
            " -- line comment\n", "\f"};

    @ParameterizedTest
    @ValueSource(strings = {
            "select o.id, c.name from orders o join customers c on c.id = o.customer_id "
                    + "where o.total > 100 and c.region in {list} order by o.id limit 10",
            "insert into events (id, kind, payload) values {rows}",
            "update accounts set balance = balance - 25.5 where id = 7 and status = 'open' returning balance",
            "with recent as (select * from logs where ts > now() - interval '1 day') "
                    + "select count(*) from recent where level = 'ERROR'",
            "select * from docs where data @> '{\"a\": 1}' and tags ?| array[{elements}] and id = any(array[{elements}])",
            "delete from sessions using users u where sessions.user_id = u.id and u.name = $1",
            "select \"Quoted Col\", x::numeric(10, 2) from s.\"T\" where y between 1 and 2",
    })
    void fingerprintIsStableUnderLexicalNoise(String base) {
        Random random = new Random(base.hashCode());
        long expected = PostgresLexing.fingerprint(instantiate(base, random, 3)).hash();
        for (int round = 0; round < 300; round++) {
            String variant = noise(instantiate(base, random, 1 + random.nextInt(20)), random);
            assertThat(PostgresLexing.fingerprint(variant).hash())
                    .as("%s%nnormalized: %s", variant, PostgresLexing.fingerprint(variant).text())
                    .isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "select a, b from t where c = 1",
            "update t set a = 1 where b = 2",
            "select * from x join y on x.id = y.id",
    })
    void renamingAnyIdentifierChangesTheFingerprint(String base) {
        TokenStream ts = PostgresLexing.tokens(base);
        long original = PostgresLexing.fingerprint(base).hash();
        for (int i = 0; i < ts.size(); i++) {
            if (ts.kind(i) == TokenKind.IDENT) {
                String renamed = base.substring(0, ts.start(i)) + "zz" + base.substring(ts.end(i));
                assertThat(PostgresLexing.fingerprint(renamed).hash()).as(renamed).isNotEqualTo(original);
            }
        }
    }

    /** Replaces {list}, {rows} and {elements} with n constants. */
    private static String instantiate(String base, Random random, int n) {
        StringBuilder list = new StringBuilder("(");
        StringBuilder rows = new StringBuilder();
        StringBuilder elements = new StringBuilder();
        for (int k = 0; k < n; k++) {
            list.append(k > 0 ? ", " : "").append(constant(random));
            rows.append(k > 0 ? ", " : "").append('(').append(constant(random)).append(", ")
                    .append(constant(random)).append(", ").append(constant(random)).append(')');
            elements.append(k > 0 ? ", " : "").append(constant(random));
        }
        return base.replace("{list}", list.append(')')).replace("{rows}", rows).replace("{elements}", elements);
    }

    /** The same tokens with other separators, key word case and constants. */
    private static String noise(String sql, Random random) {
        TokenStream ts = PostgresLexing.tokens(sql);
        StringBuilder out = new StringBuilder(random.nextBoolean() ? "" : "/* leading */ ");
        for (int i = 0; i < ts.size(); i++) {
            if (i > 0) {
                boolean mayGlue = ts.kind(i) == TokenKind.COMMA || ts.kind(i - 1) == TokenKind.LPAREN
                        || ts.kind(i) == TokenKind.RPAREN;
                out.append(mayGlue && random.nextBoolean() ? "" : SEPARATORS[random.nextInt(SEPARATORS.length)]);
            }
            TokenKind kind = ts.kind(i);
            if (kind == TokenKind.IDENT) {
                out.append(randomCase(ts.tokenText(i), random));
            } else if (kind.isConstant()) {
                out.append(constant(random));
            } else {
                out.append(ts.tokenText(i));
            }
        }
        return out.append(random.nextBoolean() ? "" : " -- trailing").toString();
    }

    private static String constant(Random random) {
        return switch (random.nextInt(10)) {
            case 0 -> Integer.toString(random.nextInt(1000));
            case 1 -> random.nextInt(100) + "." + random.nextInt(100);
            case 2 -> "1e" + random.nextInt(10);
            case 3 -> "'s" + random.nextInt(100) + "''q'";
            case 4 -> "E'\\'" + random.nextInt(100) + "'";
            case 5 -> "$$" + random.nextInt(100) + "$$";
            case 6 -> "$t$ ' $$ " + random.nextInt(100) + "$t$";
            case 7 -> "$" + (1 + random.nextInt(9));
            case 8 -> "?";
            default -> "0x" + Integer.toHexString(random.nextInt(4096));
        };
    }

    private static String randomCase(String word, Random random) {
        StringBuilder b = new StringBuilder(word.length());
        for (char c : word.toCharArray()) {
            b.append(random.nextBoolean() ? Character.toUpperCase(c) : Character.toLowerCase(c));
        }
        return b.toString();
    }
}
