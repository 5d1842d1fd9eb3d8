package io.memogate.broker.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FilterInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcMemoryReaderTest {

    /**
     * The paths, the stream and its channel, and room to spare; not the file's text (1.5-2 kB), which is read in
     * place.
     */
    private static final long READ_ALLOCATION_BYTES = 1024;

    @TempDir
    Path proc;

    @Test
    void rssAnonIsReadInKibibytes() throws IOException {
        process(42, """
                Name:\tpostgres
                VmRSS:\t  200000 kB
                RssAnon:\t   12345 kB
                RssFile:\t    5000 kB
                RssShmem:\t  182655 kB
                """, null);

        assertThat(reader().privateBytes(42)).hasValue(12345L * 1024);
    }

    /**
     * /proc returns a status file whole in one read when it fits: the read that would find its end is not made (at
     * every poll, one system call per server process). A file larger than the buffer is still read to its end.
     */
    @Test
    void aStatusThatFitsIsReadInOneCallAndALargerFileWhole() throws IOException {
        String status = "Name:\tpostgres\n" + "Groups:\t\n".repeat(100) + "RssAnon:\t   12345 kB\n";
        process(42, status, null);
        String large = "Name:\tpostgres\n" + "X:\t1\n".repeat(5_000) + "RssAnon:\t   777 kB\n";
        process(43, large, null);
        List<Integer> reads = new ArrayList<>();
        ProcMemoryReader reader = new ProcMemoryReader(proc, file -> new FilterInputStream(Files.newInputStream(file)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                reads.add(n);
                return n;
            }
        });

        assertThat(reader.privateBytes(42)).hasValue(12345L * 1024);
        assertThat(reads).containsExactly(status.length());
        reads.clear();
        assertThat(reader.privateBytes(43)).hasValue(777L * 1024);
        assertThat(reads.stream().mapToInt(Integer::intValue).sum()).isEqualTo(large.length());
    }

    @Test
    void aProcessThatIsGoneHasNoValueRatherThanZero() throws IOException {
        assertThat(reader().privateBytes(4242)).isEmpty();
    }

    /** The kernel's ESRCH when a server process exits mid-read; seen as "broker fallback: mode=stale". */
    @Test
    void aProcessExitingWhileItsFileIsOpenedOrReadIsGoneNotAFailure() {
        assertThat(ProcMemoryReader.processGone(
                new FileSystemException("/proc/22030/smaps_rollup", null, "No such process"))).isTrue();
        assertThat(ProcMemoryReader.processGone(new IOException("No such process"))).isTrue();
        assertThat(ProcMemoryReader.processGone(
                new FileSystemException("/proc/1/smaps_rollup", null, "Permission denied"))).isFalse();
    }

    @Test
    void withoutRssAnonPssAnonFromSmapsRollupIsUsed() throws IOException {
        process(7, "Name:\tpostgres\nVmRSS:\t  200000 kB\n", """
                00400000-7ffd1b9e2000 ---p 00000000 00:00 0                              [rollup]
                Rss:              200000 kB
                Pss:               40000 kB
                Pss_Anon:          11000 kB
                Pss_File:           1000 kB
                Pss_Shmem:         28000 kB
                """);

        assertThat(reader().privateBytes(7)).hasValue(11000L * 1024);
    }

    @Test
    void onOlderKernelsPssIsTheLastResort() throws IOException {
        process(8, "Name:\tpostgres\n", """
                00400000-7ffd1b9e2000 ---p 00000000 00:00 0                              [rollup]
                Rss:              200000 kB
                Pss:               40000 kB
                """);

        assertThat(reader().privateBytes(8)).hasValue(40000L * 1024);
    }

    @Test
    void aZombieWithNoMemoryHasNoValue() throws IOException {
        process(9, "Name:\tpostgres\nState:\tZ (zombie)\n", "");

        assertThat(reader().privateBytes(9)).isEmpty();
    }

    @Test
    void aMalformedLineIsAnErrorNotAGuess() throws IOException {
        process(10, "RssAnon:\t12345 pages\n", null);

        assertThatThrownBy(() -> reader().privateBytes(10)).isInstanceOf(IOException.class)
                .hasMessageContaining("RssAnon:");
    }

    @Test
    void hostMemoryComesFromMeminfo() throws IOException {
        Files.writeString(proc.resolve("meminfo"), """
                MemTotal:       24684092 kB
                MemFree:        24222796 kB
                MemAvailable:   24178708 kB
                """);

        assertThat(reader().hostMemory())
                .isEqualTo(new HostMemory(OptionalLong.of(24684092L * 1024), OptionalLong.of(24178708L * 1024)));
    }

    @Test
    void thisJvmHasPrivateMemoryAndTheHostHasMemory() throws IOException {
        ProcMemoryReader system = ProcMemoryReader.system();
        long self = ProcessHandle.current().pid();

        // The JVM's heap alone is anonymous memory: far more than a megabyte.
        assertThat(system.privateBytes(self).orElseThrow()).isGreaterThan(1L << 20);
        HostMemory host = system.hostMemory();
        assertThat(host.totalBytes().orElseThrow()).isGreaterThan(1L << 20);
        assertThat(host.availableBytes().orElseThrow()).isLessThanOrEqualTo(host.totalBytes().getAsLong());
    }

    /**
     * The broker reads every server process's status at every poll: a read makes the stream, not the text, nor a
     * reader's buffers and a String per line (30.8 kB per read of this JVM's status when it did, 2.5 kB with the
     * text as a String).
     */
    @Test
    void readingAProcessesStatusMakesNoCopyOfItsText() throws IOException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM counts no allocated bytes per thread");
        ProcMemoryReader system = ProcMemoryReader.system();
        long self = ProcessHandle.current().pid();
        for (int i = 0; i < 1_000; i++) {
            system.privateBytes(self);
        }
        int reads = 1_000;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < reads; i++) {
            system.privateBytes(self);
        }
        long perRead = (threads.getCurrentThreadAllocatedBytes() - before) / reads;

        assertThat(perRead).as("bytes allocated per read of /proc/self/status").isLessThan(READ_ALLOCATION_BYTES);
    }

    private ProcMemoryReader reader() {
        return new ProcMemoryReader(proc);
    }

    private void process(int pid, String status, String smapsRollup) throws IOException {
        Path directory = Files.createDirectory(proc.resolve(Integer.toString(pid)));
        Files.writeString(directory.resolve("status"), status);
        if (smapsRollup != null) {
            Files.writeString(directory.resolve("smaps_rollup"), smapsRollup);
        }
    }
}
