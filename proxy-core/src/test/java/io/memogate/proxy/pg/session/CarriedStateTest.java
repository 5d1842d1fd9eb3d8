package io.memogate.proxy.pg.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.pg.message.frontend.Parse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CarriedStateTest {

    @Test
    void onlyAnAnswerOfZeroHeldIsCarriable() {
        CarriedState none = new CarriedState();
        assertThat(none.carriable()).as("no answer at all").isFalse();
        CarriedState held = new CarriedState();
        held.row("held", null, "2", null);
        assertThat(held.carriable()).isFalse();
        CarriedState free = new CarriedState();
        free.row("held", null, "0", null);
        assertThat(free.carriable()).isTrue();
        assertThat(free.isEmpty()).isTrue();
    }

    @Test
    void restoresSettingsThenStatementsInOneSync() {
        CarriedState state = new CarriedState();
        state.row("held", null, "0", null);
        state.row("setting", "search_path", "\"it's\", public", null);
        state.row("statement", "S_1", "COMMIT", "{}");
        state.row("statement", "S_2", "SELECT $1::int + $2", "{23,20}");
        ByteBuf out = Unpooled.buffer();
        state.encodeRestore(out);
        ByteBuf expected = Unpooled.buffer();
        new Parse("", "SELECT pg_catalog.set_config(E'search_path', E'\"it''s\", public', false)", List.of()).encode(expected);
        new io.memogate.proxy.pg.message.frontend.Bind("", "").encode(expected);
        new io.memogate.proxy.pg.message.frontend.Execute("", 0).encode(expected);
        new Parse("S_1", "COMMIT", List.of()).encode(expected);
        new Parse("S_2", "SELECT $1::int + $2", List.of(23, 20)).encode(expected);
        io.memogate.proxy.pg.message.frontend.Sync.INSTANCE.encode(expected);
        assertThat(out).isEqualTo(expected);
    }

    @Test
    void literalsReadTheSameWhateverStandardConformingStringsSays() {
        assertThat(SessionStateCheck.literal("a'b\\c")).isEqualTo("E'a''b\\\\c'");
    }

    @Test
    void theCheckLeavesOutWhatTheStartupMessageSetsAlready() {
        String sql = SessionStateCheck.sql(Map.of("user", "alice", "database", "db", "DateStyle", "ISO"));
        assertThat(sql).contains("NOT IN (VALUES (E'datestyle', E'ISO'))").doesNotContain("alice")
                .contains("name <> '" + SessionStateCheck.STATEMENT + "'");
        assertThat(SessionStateCheck.sql(Map.of("user", "alice"))).doesNotContain("NOT IN");
        assertThat(sql.getBytes(StandardCharsets.UTF_8)).isNotEmpty();
    }
}
