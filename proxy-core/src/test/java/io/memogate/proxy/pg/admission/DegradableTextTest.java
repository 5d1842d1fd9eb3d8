package io.memogate.proxy.pg.admission;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which texts may run under tighter settings: in the proxy's transaction block, in the client's, at a Bind. */
class DegradableTextTest {

    @Test
    void queriesAndDataChangesMayBeDegraded() {
        assertThat(DegradableText.mayDegrade("select * from a join b using (id)")).isTrue();
        assertThat(DegradableText.mayDegrade("/* report 7 */ WITH x AS (select 1) select * from x")).isTrue();
        assertThat(DegradableText.mayDegrade("insert into t select * from a, b")).isTrue();
        assertThat(DegradableText.mayDegrade("explain (summary, memory) select 1")).isTrue();
    }

    @Test
    void statementsThatBehaveOtherwiseInABlockAreNot() {
        assertThat(DegradableText.mayDegrade("declare c cursor for select * from a, b")).isFalse();
        assertThat(DegradableText.mayDegrade("vacuum a")).isFalse();
        assertThat(DegradableText.mayDegrade("call load()")).isFalse();
        assertThat(DegradableText.mayDegrade("do $$ begin perform 1; end $$")).isFalse();
        assertThat(DegradableText.mayDegrade("begin")).isFalse();
    }

    @Test
    void atBindOnlyWhatTheServerPlansThere() {
        assertThat(DegradableText.mayDegradeAtBind("select * from a join b using (id)")).isTrue();
        assertThat(DegradableText.mayDegradeAtBind("update a set x = 1 from b where a.id = b.id")).isTrue();
        // EXPLAIN plans its query when executed, after the settings are restored behind the Bind.
        assertThat(DegradableText.mayDegradeAtBind("explain select * from a, b")).isFalse();
        assertThat(DegradableText.mayDegradeAtBind("select * from a, b where a.x = 'geqo'")).isFalse();
    }

    @Test
    void aTextThatNamesTheSettingsIsNot() {
        assertThat(DegradableText.mayDegrade("select current_setting('join_collapse_limit') from a, b")).isFalse();
        assertThat(DegradableText.mayDegrade("select set_config('work_mem', '1GB', true), * from a, b")).isFalse();
        assertThat(DegradableText.mayDegrade("select * from a, b where a.x = 'GEQO'")).isFalse();
        assertThat(DegradableText.mayDegrade("SELECT SET_CONFIG('x', 'y', true), * FROM a, b")).isFalse();
        assertThat(DegradableText.mayDegrade("select * from a, b -- Enable_PartitionWise_Join")).isFalse();
        assertThat(DegradableText.mayDegrade("select current_setting('Enable_Memoize'), * from a, b")).isFalse();
        assertThat(DegradableText.mayDegrade("select 1 from geq, collapse, set_conf, memo")).isTrue();
    }
}
