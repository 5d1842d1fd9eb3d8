package io.memogate.proxy.postgres.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class EmbeddedPostgresOptionsTest {

    @Test
    void defaultsPickAFreePortWithoutTlsAndTheDocumentedHbaRules() {
        EmbeddedPostgresOptions options = EmbeddedPostgresOptions.defaults();
        assertThat(options.port()).isZero();
        assertThat(options.tls()).isEmpty();
        assertThat(options.hbaLines()).containsExactly(
                "local all postgres trust",
                "local all memogate_trust trust",
                "local all memogate_plain password",
                "local all all md5",
                "host all memogate_trust 127.0.0.1/32 trust",
                "host all memogate_plain 127.0.0.1/32 password",
                "host all all 127.0.0.1/32 md5");
        assertThat(options.settings()).containsEntry("password_encryption", "scram-sha-256");
        assertThat(options.unprivilegedUser()).isEqualTo("nobody");
    }

    @Test
    void builderAddsSettingsInOrderAndToBuilderKeepsEverything() {
        EmbeddedPostgresOptions options = EmbeddedPostgresOptions.builder()
                .port(15432)
                .setting("geqo", "off")
                .setting("fsync", "on")
                .tls(Path.of("/certs/server.crt"), Path.of("/certs/server.key"))
                .startTimeout(Duration.ofSeconds(5))
                .build();
        assertThat(options.settings().keySet()).containsExactly(
                "password_encryption", "fsync", "synchronous_commit", "full_page_writes", "geqo");
        assertThat(options.settings()).containsEntry("fsync", "on");
        assertThat(options.tls()).contains(new ServerTls(Path.of("/certs/server.crt"), Path.of("/certs/server.key")));
        assertThat(options.toBuilder().build()).isEqualTo(options);
    }

    @Test
    void invalidValuesAreRejectedNamingTheField() {
        assertThatIllegalArgumentException().isThrownBy(() -> EmbeddedPostgresOptions.builder().port(70000).build())
                .withMessage("port must be in [0, 65535] (0 picks a free port), was 70000");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> EmbeddedPostgresOptions.builder().setting("port", "5432").build())
                .withMessageStartingWith("settings.port is set by the embedded server itself");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> EmbeddedPostgresOptions.builder().setting("Work Mem", "1MB").build())
                .withMessageContaining("'Work Mem' is not a lower-case setting name");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> EmbeddedPostgresOptions.builder().setting("ssl", "on")
                        .tls(Path.of("a.crt"), Path.of("a.key")).build())
                .withMessage("settings.ssl conflicts with the tls option");
        assertThatIllegalArgumentException().isThrownBy(() -> EmbeddedPostgresOptions.builder().hbaLines(List.of()).build())
                .withMessageStartingWith("hbaLines must not be empty");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> EmbeddedPostgresOptions.builder().startTimeout(Duration.ZERO).build())
                .withMessage("startTimeout must be positive, was PT0S");
    }

    @Test
    void settingsWithoutTlsMayEnableSslByHand() {
        assertThat(EmbeddedPostgresOptions.builder().setting("ssl", "off").build().settings()).containsEntry("ssl", "off");
    }
}
