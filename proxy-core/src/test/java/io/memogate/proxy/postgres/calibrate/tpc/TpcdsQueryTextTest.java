package io.memogate.proxy.postgres.calibrate.tpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TpcdsQueryTextTest {

    @Test
    void halfSubstitutedTemplatesBecomePlannableText() {
        String generated = """
                Define YEAR=random(1998,2002,uniform);
                select i_item_desc, sum(ss_ext_sales_price)
                from store_sales, item, date_dim
                where ss_item_sk = i_item_sk
                  and i_category in ('[CATEGORY.1]', 'Books')
                  and s_gmt_offset = distmember(fips_county,[COUNTY], 6)
                  and d_date between cast('date([YEAR]+"-01-01",[YEAR]+"-07-01",sales)' as date)
                      and (cast('1999-02-22' as date) + 30 days)
                  and d_year = [YEAR]
                group by i_item_desc""";
        assertThat(TpcdsQueryText.forPostgres(generated)).isEqualTo("""

                select i_item_desc, sum(ss_ext_sales_price)
                from store_sales, item, date_dim
                where ss_item_sk = i_item_sk
                  and i_category in ('2000-01-15', 'Books')
                  and s_gmt_offset = 1
                  and d_date between cast('2000-01-15' as date)
                      and (cast('1999-02-22' as date) + interval '30 days')
                  and d_year = 1
                group by i_item_desc""");
    }

    @Test
    void textBetweenTwoLiteralsIsNeverTakenForOne() {
        String sql = "sum(case when (d_day_name='Sunday') then p else null end) s, sum(case when (d_day_name='Monday')"
                + " then p else null end) m";
        assertThat(TpcdsQueryText.forPostgres(sql)).isEqualTo(sql);
    }

    @Test
    void anOutputNameInsideAnOrderByExpressionIsSpelledOut() {
        String generated = """
                select sum(ws_net_paid) as total_sum, i_category, i_class
                   ,grouping(i_category)+grouping(i_class) as lochierarchy
                from web_sales, item where i_item_sk = ws_item_sk
                group by rollup(i_category,i_class)
                order by
                   lochierarchy desc,
                   case when lochierarchy = 0 then i_category end
                 LIMIT 100""";
        assertThat(TpcdsQueryText.forPostgres(generated)).isEqualTo(generated.replace("case when lochierarchy = 0",
                "case when (grouping(i_category)+grouping(i_class)) = 0"));
    }

    @Test
    void theCustomerReviewDateHasItsTpcds2Name() {
        assertThat(TpcdsQueryText.forPostgres("select c_last_review_date from customer"))
                .isEqualTo("select c_last_review_date_sk from customer");
    }
}
