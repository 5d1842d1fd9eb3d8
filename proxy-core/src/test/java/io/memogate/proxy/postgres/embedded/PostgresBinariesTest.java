package io.memogate.proxy.postgres.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostgresBinariesTest {

    @TempDir
    Path cache;

    @Test
    void unpacksOnceAndReusesTheCache() throws IOException {
        byte[] archive = new TarXzFixture().postgresLayout().finish();
        AtomicInteger opens = new AtomicInteger();
        PostgresBinaries binaries = new PostgresBinaries(() -> {
            opens.incrementAndGet();
            return new ByteArrayInputStream(archive);
        }, cache, new TarXzUnpacker());

        Path first = binaries.install();
        int opensForFirstInstall = opens.get();
        Path second = binaries.install();

        assertThat(first).isEqualTo(second).startsWith(cache);
        assertThat(first.getFileName().toString()).matches("memogate-postgres-[0-9a-f]{16}");
        assertThat(first.resolve("bin/postgres")).isExecutable();
        assertThat(opensForFirstInstall).as("digest and unpack").isEqualTo(2);
        assertThat(opens.get() - opensForFirstInstall).as("digest only").isEqualTo(1);
    }

    @Test
    void concurrentInstallsAgreeOnOneCompleteDirectory() throws Exception {
        byte[] archive = new TarXzFixture().postgresLayout().finish();
        int racers = 4;
        CyclicBarrier start = new CyclicBarrier(racers);
        List<Callable<Path>> installs = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            installs.add(() -> {
                start.await();
                return new PostgresBinaries(() -> new ByteArrayInputStream(archive), cache, new TarXzUnpacker()).install();
            });
        }
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        try {
            List<Path> results = new ArrayList<>();
            for (Future<Path> result : pool.invokeAll(installs)) {
                results.add(result.get());
            }
            assertThat(results).hasSize(racers).containsOnly(results.getFirst());
        } finally {
            pool.shutdownNow();
        }
        try (Stream<Path> entries = Files.list(cache)) {
            assertThat(entries).as("no staging directories left behind").hasSize(1);
        }
    }

    @Test
    void differentArchivesGetDifferentDirectories() throws IOException {
        byte[] one = new TarXzFixture().postgresLayout().finish();
        byte[] two = new TarXzFixture().postgresLayout().file("bin/extra", 0755, "new").finish();
        Path first = new PostgresBinaries(() -> new ByteArrayInputStream(one), cache, new TarXzUnpacker()).install();
        Path second = new PostgresBinaries(() -> new ByteArrayInputStream(two), cache, new TarXzUnpacker()).install();
        assertThat(first).isNotEqualTo(second);
    }

    @Test
    void aPrunedCacheIsReportedWithTheWayOut() throws IOException {
        byte[] archive = new TarXzFixture().postgresLayout().finish();
        PostgresBinaries binaries = new PostgresBinaries(() -> new ByteArrayInputStream(archive), cache,
                new TarXzUnpacker());
        Path installed = binaries.install();
        Files.delete(installed.resolve("bin/pg_ctl"));

        assertThatIOException().isThrownBy(binaries::install)
                .withMessageContaining("bin/pg_ctl is missing")
                .withMessageContaining("delete that directory");
    }
}
