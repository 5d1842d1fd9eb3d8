package io.memogate.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class AuthFileTest {

    @Test
    void readsPgBouncerUserlistLines() {
        AuthFile file = AuthFile.parse(List.of(
                "; PgBouncer's comment",
                "# and another",
                "",
                "\"alice\" \"plain \"\"quoted\"\" secret\"",
                "  \"bob\"   \"md5" + "0123456789abcdef0123456789abcdef" + "\"  trailing text is ignored",
                "\"carol\" \"SCRAM-SHA-256$4096:c2FsdA==$" + "A".repeat(43) + "=:" + "B".repeat(43) + "=\""));
        assertThat(file.size()).isEqualTo(3);
        assertThat(file.secretOf("alice")).contains(new Secret.Plain("plain \"quoted\" secret"));
        assertThat(file.secretOf("bob")).contains(new Secret.Md5Hash("0123456789abcdef0123456789abcdef"));
        assertThat(file.secretOf("carol").orElseThrow()).isInstanceOfSatisfying(Secret.ScramVerifier.class, v -> {
            assertThat(v.iterations()).isEqualTo(4096);
            assertThat(v.salt()).isEqualTo("salt".getBytes());
            assertThat(v.storedKey()).hasSize(32);
        });
        assertThat(file.secretOf("dave")).isEmpty();
    }

    @Test
    void aMalformedLineIsNamed() {
        assertThatThrownBy(() -> AuthFile.parse(List.of("\"alice\" \"secret\"", "bob secret")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("line 2: expected \"user\" \"secret\"");
        assertThatThrownBy(() -> AuthFile.parse(List.of("\"alice\" \"secret")))
                .hasMessageStartingWith("line 1: a quoted field is not closed");
        assertThatThrownBy(() -> AuthFile.parse(List.of("\"alice\" \"SCRAM-SHA-256$4096:c2FsdA==$short\"")))
                .hasMessageStartingWith("line 1: a SCRAM-SHA-256 secret must read");
    }

    @Test
    void onlyLowerCaseHexAfterMd5IsAHash() {
        assertThat(Secret.parse("md5" + "0123456789ABCDEF0123456789abcdef")).isInstanceOf(Secret.Plain.class);
        assertThat(Secret.parse("md5short")).isInstanceOf(Secret.Plain.class);
    }

    @Test
    void secretsStayOutOfToString() {
        assertThat(AuthFile.parse(List.of("\"alice\" \"hunter2\"")).secretOf("alice").orElseThrow().toString())
                .doesNotContain("hunter2");
    }
}
