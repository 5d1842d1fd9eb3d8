package io.memogate.bench.targets;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The build a shipped target runs is named in the report by its checkout's commit. */
class CheckoutRevisionTest {

    @Test
    void aCheckoutIsNamedByItsCommit() {
        assertThat(CheckoutRevision.of(Path.of("..").toAbsolutePath().normalize()))
                .matches("[0-9a-f]{8}( with uncommitted changes)?");
    }

    @Test
    void aDirectoryOutsideGitSaysTheCommitIsUnknown(@TempDir Path directory) {
        assertThat(CheckoutRevision.of(directory)).startsWith("commit unknown");
    }
}
