package io.memogate.estimator.mysql;

import io.memogate.estimator.planner.TableStatistics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tables t1..t24 of bench's random MariaDB corpus ({@code RandomMariaDbCorpus}) as MariaDB 10.11 reported them
 * for two of its seeds: rows, pages, then each index's column and distinct values; {@code id} is the primary key.
 */
final class RandomCorpusTables {

    private static final String[] SEED_1 = {
        "746 4 id:746 b:746 c:373 d:248",
        "171 1 id:171 a:171",
        "17 1 id:17 a:17 b:17 c:17 e:17",
        "41 1 id:41 c:41 d:41 e:41",
        "78 1 id:78 c:78",
        "118 1 id:118 a:118 b:118 e:118",
        "1550 6 id:1550 b:310 c:1550 d:1550 e:775",
        "47 1 id:47 c:47 d:47 e:47",
        "19 1 id:19 a:19 b:2 d:19",
        "86 1 id:86 b:86 e:86",
        "304 1 id:304 a:50 b:76 c:304 d:304",
        "11 1 id:11 e:11",
        "917 5 id:917 a:917 b:917 e:917",
        "69 1 id:69 a:69",
        "81 1 id:81 b:81 c:81 e:81",
        "25 1 id:25 d:25",
        "2768 10 id:2768 a:251 c:692",
        "83 1 id:83 d:83",
        "1470 6 id:1470 b:1470 d:1470 e:1470",
        "946 5 id:946 b:41 d:946 e:946",
        "43 1 id:43 b:8 e:43",
        "12 1 id:12 b:12 e:12",
        "34 1 id:34 a:34 b:6 e:34",
        "835 4 id:835 a:208 d:835"};

    private static final String[] SEED_3 = {
        "1283 6 id:1283 b:1283 c:1283 e:1283",
        "12 1 id:12 c:12",
        "58 1 id:58 a:58",
        "142 1 id:142 a:142 c:142 d:142 e:8",
        "3352 12 id:3352 a:3352 b:1117 c:558",
        "1344 6 id:1344 c:1344",
        "40 1 id:40 a:40 b:40 c:40 d:40",
        "1761 7 id:1761 a:1761 b:160 c:880 d:1761",
        "32 1 id:32 b:32 c:32 d:32",
        "3431 12 id:3431 a:1715 e:3431",
        "98 1 id:98 a:98 b:98 e:98",
        "386 3 id:386 c:128 d:386",
        "148 1 id:148 a:148 b:148",
        "2301 9 id:2301 b:767 c:2301 d:2301 e:2301",
        "898 5 id:898 a:898 d:898",
        "39 1 id:39 b:2",
        "106 1 id:106 b:106 d:106 e:53",
        "13 1 id:13 a:13 b:13 c:13 d:13 e:13",
        "14 1 id:14 a:14 b:14 c:14",
        "82 1 id:82 a:41 b:82 c:82",
        "52 1 id:52 a:52",
        "1144 5 id:1144 b:1144 c:1144 e:1144",
        "558 4 id:558 a:139 b:558 c:279",
        "1107 5 id:1107 a:553 c:1107"};

    private RandomCorpusTables() {
    }

    static TableStatistics seed1() {
        return statistics(SEED_1);
    }

    static TableStatistics seed3() {
        return statistics(SEED_3);
    }

    private static TableStatistics statistics(String[] described) {
        Map<String, TableStatistics.Table> tables = new HashMap<>();
        for (int t = 0; t < described.length; t++) {
            String[] fields = described[t].split(" ");
            List<TableStatistics.Index> indexes = new ArrayList<>();
            for (int i = 2; i < fields.length; i++) {
                String[] index = fields[i].split(":");
                indexes.add(new TableStatistics.Index(List.of(index[0]), index[0].equals("id"),
                        List.of(Long.parseLong(index[1]))));
            }
            tables.put("t" + (t + 1), new TableStatistics.Table(Long.parseLong(fields[0]), Long.parseLong(fields[1]),
                    indexes));
        }
        return TableStatistics.of(tables);
    }
}
