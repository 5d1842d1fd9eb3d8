package io.memogate.bench.targets;

import io.memogate.bench.process.ChildProcess;
import io.memogate.bench.relay.ByteRelay;
import io.memogate.bench.process.FreePort;
import io.memogate.bench.process.TempDirectory;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@link ByteRelay} in a JVM of its own, the benchmark's JDK and class path, with the JVM options the shipped proxy
 * gets ({@code MEMOGATE_JAVA_OPTS}, none unless set), so that the two differ in what they do and not in how they
 * run. Its CPU time is its process's, JIT and GC included, as the shipped proxy's is.
 */
public final class NettyRelayTarget extends ProcessTarget {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private NettyRelayTarget(int port, ChildProcess process, TempDirectory directory) {
        super(TargetKind.NETTY_RELAY, port, process, directory);
    }

    /** Starts the relay in front of {@code backend}'s TCP address. */
    public static NettyRelayTarget start(Backend backend) throws IOException, InterruptedException {
        TempDirectory directory = TempDirectory.create("memogate-bench-netty-relay-");
        try {
            int port = FreePort.find();
            ChildProcess process = ChildProcess.start("netty-relay", command(port, backend), directory.path(),
                    directory.resolve("relay.log"));
            process.awaitPortOrStop(port, START_TIMEOUT);
            return new NettyRelayTarget(port, process, directory);
        } catch (IOException | InterruptedException | RuntimeException e) {
            directory.close();
            throw e;
        }
    }

    static List<String> command(int port, Backend backend) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        LauncherOptions.javaOptions().ifPresent(options -> command.addAll(Arrays.asList(options.split("\\s+"))));
        command.addAll(List.of("-cp", absoluteClassPath(), ByteRelay.class.getName(),
                Integer.toString(port), backend.host(), Integer.toString(backend.port())));
        return command;
    }

    /** This JVM's class path with every entry absolute: the relay runs in a directory of its own. */
    private static String absoluteClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    @Override
    public String description() {
        return "a Netty relay that parses nothing (" + ByteRelay.class.getSimpleName() + ", pid " + pid() + ", Java "
                + Runtime.version() + ") on 127.0.0.1:" + port();
    }
}
