package io.memogate.bench.storm.report;

import io.memogate.bench.storm.load.Template;
import java.util.List;

/**
 * What the report says about the run besides the figures.
 *
 * @param command    the command line, as a user would type it again
 * @param machine    CPUs, memory, kernel, Java
 * @param emulation  how the smaller host is emulated, one sentence per line
 * @param setup      server, proxy and client settings, one per line
 */
public record RunInfo(String command, String started, List<String> machine, List<String> emulation,
                      List<String> setup, List<Template> templates, long hostMemoryBytes) {

    public RunInfo {
        machine = List.copyOf(machine);
        emulation = List.copyOf(emulation);
        setup = List.copyOf(setup);
        templates = List.copyOf(templates);
    }
}
