package io.memogate.bench.accuracy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Join shapes over {@link SyntheticDatabase}: chains, cycles, stars, cliques and snowflakes, written as a
 * FROM list with one equality per edge ({@code si.kj = sj.id} along tree edges, {@code si.kj = sj.ki}
 * otherwise), each edge on its own columns. Sizes stop where a shape needs about a gigabyte under wide
 * settings (a 10-table clique), well inside the governor's host.
 */
final class SyntheticShapes {

    private SyntheticShapes() {
    }

    static List<Corpus.Member> all() {
        List<Corpus.Member> members = new ArrayList<>();
        for (int n = 4; n <= 16; n += 4) {
            members.add(member("chain", n, chain(n), false));
            members.add(member("cycle", n, cycle(n), false));
        }
        for (int n = 6; n <= 14; n += 2) {
            members.add(member("star", n, star(n), false));
            members.add(member("star", n, star(n), true));
        }
        for (int n = 5; n <= 10; n++) {
            members.add(member("clique", n, clique(n), false));
        }
        for (int arms = 3; arms <= 6; arms++) {
            members.add(member("snowflake", 1 + 2 * arms, snowflake(arms), false));
            members.add(member("snowflake", 1 + 2 * arms, snowflake(arms), true));
        }
        return members;
    }

    private static Corpus.Member member(String shape, int tables, List<String> edges, boolean limit) {
        String from = IntStream.range(0, tables).mapToObj(t -> "s" + t).collect(Collectors.joining(", "));
        String sql = "SELECT count(*) FROM " + from + " WHERE " + String.join(" AND ", edges) + (limit ? " LIMIT 10" : "");
        return new Corpus.Member(shape + tables + (limit ? "-limit" : ""), sql);
    }

    private static String tree(int parent, int child) {
        return "s" + parent + ".k" + child + " = s" + child + ".id";
    }

    private static String cross(int i, int j) {
        return "s" + i + ".k" + j + " = s" + j + ".k" + i;
    }

    private static List<String> chain(int n) {
        List<String> edges = new ArrayList<>();
        for (int t = 1; t < n; t++) {
            edges.add(tree(t - 1, t));
        }
        return edges;
    }

    private static List<String> cycle(int n) {
        List<String> edges = chain(n);
        edges.add(cross(n - 1, 0));
        return edges;
    }

    private static List<String> star(int n) {
        List<String> edges = new ArrayList<>();
        for (int t = 1; t < n; t++) {
            edges.add(tree(0, t));
        }
        return edges;
    }

    private static List<String> clique(int n) {
        List<String> edges = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                edges.add(cross(i, j));
            }
        }
        return edges;
    }

    /** A hub with {@code arms} dimensions, each with one sub-dimension. */
    private static List<String> snowflake(int arms) {
        List<String> edges = new ArrayList<>();
        for (int a = 1; a <= arms; a++) {
            edges.add(tree(0, a));
            edges.add(tree(a, arms + a));
        }
        return edges;
    }
}
