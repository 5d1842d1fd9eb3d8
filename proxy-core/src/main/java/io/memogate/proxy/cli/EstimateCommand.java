package io.memogate.proxy.cli;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.planner.PlannerSettings;
import io.memogate.proxy.admin.EstimateJson;
import io.memogate.proxy.admission.CurrentEstimator;
import io.memogate.proxy.calibrate.CoefficientsFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * `memogate estimate [--setting NAME=VALUE ...] [--coefficients FILE] (--file FILE | SQL...)`: the estimator
 * on its own, one JSON line per statement, for trying statements and checking the estimator against
 * EXPLAIN (MEMORY); --coefficients takes the file `memogate calibrate` wrote.
 * SQL words given on the command line are joined with spaces into one text, which may hold several
 * statements separated by semicolons, as a file may.
 */
@Command(name = "estimate", mixinStandardHelpOptions = true,
        description = "Estimate the planner memory PostgreSQL needs for each statement; one JSON line per statement.")
final class EstimateCommand implements Callable<Integer> {

    /** The settings PlannerSettings models; others are rejected rather than silently ignored. */
    private static final Set<String> SETTINGS = Set.of("join_collapse_limit", "from_collapse_limit", "geqo",
            "geqo_threshold", "geqo_effort", "geqo_pool_size", "geqo_generations");

    @Spec
    CommandSpec spec;

    @Option(names = {"-s", "--setting"}, paramLabel = "NAME=VALUE",
            description = "A PostgreSQL planner setting (" + "join_collapse_limit, from_collapse_limit, geqo, "
                    + "geqo_threshold, geqo_effort, geqo_pool_size, geqo_generations); unset ones take PostgreSQL's"
                    + " defaults.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = "--coefficients", paramLabel = "FILE",
            description = "Memory coefficients written by `memogate calibrate` (default: the built-in ones).")
    Path coefficients;

    @ArgGroup(multiplicity = "1")
    Input input;

    static final class Input {
        @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Read the statements from FILE.")
        Path file;

        @Parameters(paramLabel = "SQL", arity = "1..*", description = "The statements, as words joined with spaces.")
        List<String> sql;
    }

    @Override
    public Integer call() throws IOException {
        PlannerSettings planner = plannerSettings();
        String text = input.file != null ? Files.readString(input.file, StandardCharsets.UTF_8) : String.join(" ", input.sql);
        PrintWriter out = spec.commandLine().getOut();
        for (CompileEstimate e : estimator().estimateAll(text, planner)) {
            out.println(json(e));
        }
        out.flush();
        return 0;
    }

    private CompileEstimator estimator() {
        if (coefficients == null) {
            return new CompileEstimator();
        }
        try {
            return CurrentEstimator.estimatorFor(CoefficientsFile.read(coefficients));
        } catch (CoefficientsFile.InvalidCoefficientsException e) {
            throw new ParameterException(spec.commandLine(), "--coefficients " + e.getMessage());
        }
    }

    private PlannerSettings plannerSettings() {
        PlannerSettings planner = PlannerSettings.DEFAULTS;
        for (Map.Entry<String, String> s : settings.entrySet()) {
            String name = s.getKey().strip().toLowerCase(Locale.ROOT);
            if (!SETTINGS.contains(name)) {
                throw new ParameterException(spec.commandLine(),
                        "--setting " + s.getKey() + ": not a planner setting the estimator models; use one of "
                                + String.join(", ", SETTINGS.stream().sorted().toList()));
            }
            planner = planner.with(name, s.getValue());
        }
        return planner;
    }

    static String json(CompileEstimate e) {
        return EstimateJson.of(e);
    }
}
