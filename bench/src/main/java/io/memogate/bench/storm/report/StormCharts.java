package io.memogate.bench.storm.report;

import io.memogate.bench.storm.load.ConnectionStyle;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The paper's figures, one set per client count and connection style: throughput (queries completed per
 * time slice) and reliability (share of attempts that succeeded per slice), one line per mode; and the
 * server's peak private memory per slice against the emulated host's size.
 */
public final class StormCharts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 520;

    private StormCharts() {
    }

    /** Writes the charts into {@code directory}; returns their file names, in the order of the groups. */
    public static List<String> write(Path directory, List<CellFigures> cells, long hostMemoryBytes) throws IOException {
        // XChart draws with AWT; the benchmark runs on servers without a display.
        System.setProperty("java.awt.headless", "true");
        List<String> files = new ArrayList<>();
        for (Group group : Group.of(cells)) {
            String suffix = group.clients() + "-" + group.style().label();
            files.add(save(directory, "throughput-" + suffix, chart(group,
                    "Throughput: " + group.title(), "queries completed per slice", s -> s.completed(), null)));
            files.add(save(directory, "reliability-" + suffix, chart(group,
                    "Reliability: " + group.title(), "attempts that succeeded (%)", SliceFigures::reliabilityPercent, 100.0)));
            XYChart memory = chart(group, "Server private memory: " + group.title(), "peak per slice (GiB)",
                    s -> s.peakBytes() / (double) (1L << 30), null);
            double[] x = {0, group.cells().getFirst().slices().getLast().endSeconds()};
            double host = hostMemoryBytes / (double) (1L << 30);
            XYSeries limit = memory.addSeries("emulated host", x, new double[] {host, host});
            limit.setMarker(SeriesMarkers.NONE);
            memory.getStyler().setYAxisMin(0.0);
            files.add(save(directory, "memory-" + suffix, memory));
        }
        return files;
    }

    private static XYChart chart(Group group, String title, String yTitle, ToDoubleFunction<SliceFigures> value,
                                 Double yMax) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("seconds into the measured window (end of slice)").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setYAxisMin(0.0);
        if (yMax != null) {
            chart.getStyler().setYAxisMax(yMax);
        }
        for (CellFigures cell : group.cells()) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (SliceFigures slice : cell.slices()) {
                double v = value.applyAsDouble(slice);
                if (!Double.isNaN(v)) { // a slice without attempts has no reliability to draw
                    x.add(slice.endSeconds());
                    y.add(v);
                }
            }
            if (x.isEmpty()) {
                x.add(0.0);
                y.add(0.0);
            }
            chart.addSeries(cell.record().mode().label(), x, y);
        }
        return chart;
    }

    private static String save(Path directory, String name, XYChart chart) throws IOException {
        BitmapEncoder.saveBitmap(chart, directory.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
        return name + ".png";
    }

    /** The cells of one client count and style: one chart's lines. */
    record Group(int clients, ConnectionStyle style, List<CellFigures> cells) {

        String title() {
            return clients + " clients, " + style.description();
        }

        static List<Group> of(List<CellFigures> cells) {
            List<Group> groups = new ArrayList<>();
            for (CellFigures cell : cells) {
                CellRecord r = cell.record();
                Group group = groups.stream().filter(g -> g.clients() == r.clients() && g.style() == r.style())
                        .findFirst().orElse(null);
                if (group == null) {
                    group = new Group(r.clients(), r.style(), new ArrayList<>());
                    groups.add(group);
                }
                group.cells().add(cell);
            }
            groups.forEach(g -> g.cells().sort(Comparator.comparing(c -> c.record().mode())));
            return groups;
        }
    }
}
