package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Fingerprints as the first implementation (a normalizer hashing token by token) computed them, pinned:
 * the normalizer and the hasher have since been rewritten for speed, and a cache key must not change
 * because of that. Each row is a statement, its hash and its normalized text.
 */
class FingerprintPinTest {

    @ParameterizedTest
    @CsvSource(delimiter = '#', quoteCharacter = '~', textBlock = """
            SELECT a, b FROM t WHERE c = 1 # 32c470e5af7e5faa # select a, b from t where c = ?
            select o.id from orders o where o.region in (1, 2, 3) and o.tag = any(array[-1, +2]) order by 1 \
            # 760a7bc0ae349098 # select o.id from orders o where o.region in (?...) and o.tag = any (array[?...]) order by ?
            INSERT INTO events (id, kind) VALUES (1, 'a'), (2, 'b'), (3, 'c') RETURNING id \
            # 9dde8b9e084c9252 # insert into events (id, kind) values (?, ?), ... returning id
            insert into t values (1,2) # c55bdd9412e40cd2 # insert into t values (?, ?), ...
            update "T" set x=-1, y = $1::numeric(10, 2) where z ?| array['a'] and w between -5 and +5 \
            # e6b903d6fd353e1e # update "T" set x = ?, y = ?::numeric (?, ?) where z ?| array[?...] and w between ? and ?
            with r as (select * from logs where ts > now() - interval '1 day') select count(*) from r \
            # 77424f19699d3c9b # with r as (select * from logs where ts > now () - interval ?) select count (*) from r
            SELECT ss_item_sk FROM store_sales WHERE ss_customer_sk IN (SELECT c_customer_sk FROM customer) \
            # 3dd361dbd66120f # select ss_item_sk from store_sales where ss_customer_sk in (select c_customer_sk from customer)
            """)
    void hashAndTextAreThoseOfTheFirstImplementation(String sql, String hash, String text) {
        Fingerprint f = PostgresLexing.fingerprint(sql);
        assertThat(Long.toHexString(f.hash())).isEqualTo(hash);
        assertThat(f.text()).isEqualTo(text);
    }
}
