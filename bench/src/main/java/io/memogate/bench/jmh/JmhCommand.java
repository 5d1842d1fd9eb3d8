package io.memogate.bench.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.openjdk.jmh.Main;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * `memogate bench jmh [JMH ARGS...]`: JMH's own command line ({@code org.openjdk.jmh.Main}) over the
 * micro-benchmarks in this jar, e.g. {@code bench jmh GatewayBench -f 1 -wi 3 -i 5}; {@code bench jmh -h}
 * prints JMH's options and {@code bench jmh -l} lists the benchmarks.
 *
 * <p>Every argument goes to JMH unchanged: the command declares no option of its own, and parsing stops
 * at the first argument (see {@link io.memogate.bench.BenchCommand#commandLine()}), so "-h" or "-f" are
 * JMH's. The forks JMH starts run this jar's class path with this JVM's java. JMH's Main exits the JVM
 * with status 1 itself when a benchmark or its options fail; when it returns, all went well.
 */
@Command(name = "jmh",
        description = {"Micro-benchmarks (JMH), e.g. 'jmh GatewayBench -f 1 -wi 3 -i 5'; every argument goes to"
                + " JMH ('jmh -h' for its options, 'jmh -l' for the benchmarks)."})
public final class JmhCommand implements Callable<Integer> {

    @Unmatched
    List<String> arguments = new ArrayList<>();

    /** The arguments JMH will get, in order. */
    public List<String> arguments() {
        return List.copyOf(arguments);
    }

    @Override
    public Integer call() throws Exception {
        Main.main(arguments.toArray(String[]::new));
        return 0;
    }
}
