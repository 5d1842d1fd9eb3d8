package io.memogate.bench.storm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.bench.BenchCommand;
import io.memogate.bench.storm.load.Mode;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** `bench storm --instances N`: which cells it runs and which arguments it refuses, with the option named. */
class StormInstancesTest {

    private static StormPlan plan(String... args) {
        CommandLine bench = BenchCommand.commandLine();
        bench.parseArgs(Stream.concat(Stream.of("storm"), Stream.of(args)).toArray(String[]::new));
        return bench.getSubcommands().get("storm").<StormCommand>getCommand().plan(Path.of("out"));
    }

    @Test
    void severalInstancesCompareSharedGatewaysWithIndependentOnesByDefault() {
        StormPlan plan = plan("--instances", "3", "--clients", "12", "--styles", "persistent");

        assertThat(plan.instances()).isEqualTo(3);
        assertThat(plan.cells()).extracting(StormPlan.Cell::label)
                .containsExactly("12-persistent-gateways-on", "12-persistent-fleet");
    }

    @Test
    void oneInstanceKeepsTheStormsDefaultModes() {
        StormPlan plan = plan("--clients", "30");

        assertThat(plan.instances()).isEqualTo(1);
        assertThat(plan.modes()).containsExactly(Mode.DIRECT, Mode.GATEWAYS_OFF, Mode.GATEWAYS_ON);
    }

    @Test
    void modesGivenAreKeptWithSeveralInstances() {
        StormPlan plan = plan("--instances", "2", "--clients", "8", "--modes", "fleet,gateways-off");

        assertThat(plan.modes()).containsExactly(Mode.FLEET, Mode.GATEWAYS_OFF);
    }

    @Test
    void theSmokeRunWithSeveralInstancesComparesThemToo() {
        StormPlan plan = plan("--smoke", "--instances", "3");

        assertThat(plan.instances()).isEqualTo(3);
        assertThat(plan.modes()).containsExactly(Mode.GATEWAYS_ON, Mode.FLEET);
        assertThat(plan.clients()).containsExactly(4);
    }

    @Test
    void fleetIsAModeTheCommandLineSpells() {
        assertThat(Mode.parse("fleet")).isEqualTo(Mode.FLEET);
        assertThat(Mode.FLEET.label()).isEqualTo("fleet");
    }

    @Test
    void instancesOutsideOneToEightAreRefused() {
        assertThatThrownBy(() -> plan("--instances", "0")).hasMessageContaining("--instances must be in [1, 8], was 0");
        assertThatThrownBy(() -> plan("--instances", "9", "--clients", "30"))
                .hasMessageContaining("--instances must be in [1, 8], was 9");
    }

    @Test
    void fewerClientsThanInstancesAreRefused() {
        assertThatThrownBy(() -> plan("--instances", "3", "--clients", "12,2"))
                .hasMessageContaining("--clients must be at least --instances (3)");
    }

    @Test
    void anUnknownModeIsNamedInTheError() {
        assertThatThrownBy(() -> plan("--instances", "3", "--modes", "shared"))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("unknown mode 'shared'");
    }
}
