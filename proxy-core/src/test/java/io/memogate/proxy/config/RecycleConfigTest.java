package io.memogate.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.config.Secret;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code recycle} section: the limit, and the auth file read with the configuration. */
class RecycleConfigTest {

    private static final String BACKEND = "backends: [{name: main, host: localhost}]\n";

    private final ConfigLoader loader = new ConfigLoader();

    @TempDir
    Path dir;

    @Test
    void withoutTheSectionRecyclingIsOnAbove64MbWithoutAnAuthFile() {
        RecycleConfig recycle = loader.parse(BACKEND, dir).recycle();
        assertThat(recycle).isEqualTo(RecycleConfig.DEFAULTS);
        assertThat(recycle.enabled()).isTrue();
        assertThat(recycle.retainedAboveBytes()).isEqualTo(64L << 20);
        assertThat(loader.parse(BACKEND + "recycle: {retainedAbove: 0}\n", dir).recycle().enabled()).isFalse();
    }

    @Test
    void readsTheAuthFileRelativeToTheConfigurationsDirectory() throws Exception {
        Files.writeString(dir.resolve("userlist.txt"), "\"alice\" \"secret\"\n\"bob\" \"md5" + "a".repeat(32) + "\"\n");
        MemogateConfig config = loader.parse(BACKEND + "recycle:\n  retainedAbove: 256MB\n  authFile: userlist.txt\n", dir);

        assertThat(config.recycle().retainedAboveBytes()).isEqualTo(256L << 20);
        assertThat(config.recycle().authFile()).contains(dir.resolve("userlist.txt"));
        assertThat(config.recycle().secrets().secretOf("alice")).contains(new Secret.Plain("secret"));
        assertThat(ConfigSettings.of(config)).contains(
                new ConfigSettings.Setting("recycle.retainedAbove", "256MiB", ConfigSettings.Applies.NEW_SESSIONS),
                new ConfigSettings.Setting("recycle.authFile", dir.resolve("userlist.txt") + " (2 users)",
                        ConfigSettings.Applies.NEW_SESSIONS));
        assertThat(ConfigSettings.of(config).toString()).doesNotContain("secret\"").doesNotContain("aaaa");
    }

    @Test
    void aMissingOrMalformedAuthFileIsAProblemWithTheOthers() throws Exception {
        assertThat(problems(BACKEND + "limits: {connectTimeout: 0s}\nrecycle: {authFile: nowhere.txt}\n"))
                .containsExactly("recycle.authFile: " + dir.resolve("nowhere.txt") + ": file not found",
                        "limits.connectTimeout must be between 1ms and 1h, was 0s");
        Files.writeString(dir.resolve("bad.txt"), "alice secret\n");
        assertThat(problems(BACKEND + "recycle: {authFile: bad.txt, retainedAbove: lots}\n")).containsExactly(
                "recycle.retainedAbove: 'lots' is not a size: write a whole number of bytes, or a whole number with "
                        + "unit B, kB, KiB, MB, MiB, GB or GiB (k, M and G are powers of 1024, as in PostgreSQL)",
                "recycle.authFile: " + dir.resolve("bad.txt") + " line 1: expected \"user\" \"secret\", each in double quotes");
    }

    private List<String> problems(String yaml) {
        try {
            return List.of("no problem: " + loader.parse(yaml, dir));
        } catch (ConfigException e) {
            return e.problems();
        }
    }
}
