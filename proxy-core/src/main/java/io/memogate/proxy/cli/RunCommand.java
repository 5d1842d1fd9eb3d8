package io.memogate.proxy.cli;

import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.reload.HangupSignal;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `memogate run --config FILE`: the proxy in production, until SIGINT or SIGTERM. SIGHUP reloads the
 * file, as do a change of it and the admin console's RELOAD.
 */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run the proxy with a configuration file.")
final class RunCommand implements Callable<Integer>, StartupFailures.Settings {

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "YAML configuration file.")
    Path config;

    @Override
    public Integer call() throws Exception {
        MemogateConfig loaded = new ConfigLoader().load(config);
        RunningProxy proxy = RunningProxy.start(loaded, Optional.of(config));
        HangupSignal.reloads(proxy.reloader());
        awaitTermination(proxy::close);
        return 0;
    }

    @Override
    public String howToChange(String field) {
        return "change " + field + " in " + config;
    }

    /**
     * Blocks until the JVM is asked to stop (Ctrl-C, SIGTERM), then runs the shutdown action inside the
     * shutdown hook so that it completes before the JVM exits.
     */
    static void awaitTermination(Runnable shutdown) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                shutdown.run();
            } finally {
                stopped.countDown();
            }
        }, "memogate-shutdown"));
        stopped.await();
    }
}
