package io.memogate.bench.report;

import java.util.ArrayList;
import java.util.List;

/** A small table rendered either as aligned text (the terminal) or as a Markdown table (the report). */
public final class Table {

    private final List<String> header;
    private final int textColumns;
    private final List<List<String>> rows = new ArrayList<>();

    /** A table whose first column holds names and the others figures. */
    public Table(List<String> header) {
        this(header, 1);
    }

    /** @param textColumns how many leading columns hold text (left-aligned); the rest hold figures */
    public Table(List<String> header, int textColumns) {
        this.header = List.copyOf(header);
        this.textColumns = textColumns;
    }

    public Table row(List<String> cells) {
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException("row has " + cells.size() + " cells, header " + header.size());
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** Text columns left-aligned, figures right-aligned. */
    public String text() {
        int[] widths = new int[header.size()];
        for (List<String> line : allLines()) {
            for (int i = 0; i < line.size(); i++) {
                widths[i] = Math.max(widths[i], line.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> line : allLines()) {
            for (int i = 0; i < line.size(); i++) {
                String cell = line.get(i);
                String pad = " ".repeat(widths[i] - cell.length());
                String separator = i == 0 ? "" : "  ";
                out.append(separator).append(i < textColumns ? cell + pad : pad + cell);
            }
            out.append(System.lineSeparator());
        }
        return out.toString().replaceAll("(?m) +$", "");
    }

    public String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("| ").append(String.join(" | ", header)).append(" |\n");
        for (int i = 0; i < header.size(); i++) {
            out.append(i < textColumns ? "|---" : "|---:");
        }
        out.append("|\n");
        for (List<String> row : rows) {
            out.append("| ").append(String.join(" | ", row.stream().map(Table::escape).toList())).append(" |\n");
        }
        return out.toString();
    }

    private List<List<String>> allLines() {
        List<List<String>> lines = new ArrayList<>();
        lines.add(header);
        lines.addAll(rows);
        return lines;
    }

    private static String escape(String cell) {
        return cell.replace("|", "\\|");
    }
}
