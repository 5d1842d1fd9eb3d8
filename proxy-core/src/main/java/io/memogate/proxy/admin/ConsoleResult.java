package io.memogate.proxy.admin;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a console command answers, protocol-neutral: notices for the person at the console, then maybe a
 * result set, then the command tag (PostgreSQL's CommandComplete: "SHOW", "SET", "RELOAD", ...).
 */
public record ConsoleResult(List<String> notices, Optional<ResultTable> table, String tag) {

    public ConsoleResult {
        notices = List.copyOf(notices);
    }

    public static ConsoleResult rows(String tag, ResultTable table) {
        return new ConsoleResult(List.of(), Optional.of(table), tag);
    }

    /** A command that returns no rows, only its tag (SET, PAUSE), with what to tell the operator. */
    public static ConsoleResult done(String tag, String... notices) {
        return new ConsoleResult(List.of(notices), Optional.empty(), tag);
    }

    public ConsoleResult withNotice(String notice) {
        List<String> all = new ArrayList<>(notices);
        all.add(notice);
        return new ConsoleResult(all, table, tag);
    }
}
