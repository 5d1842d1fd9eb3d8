package io.memogate.estimator;

import io.memogate.estimator.RoutineDefinitions.Routine;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.SettingChange;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The settings a routine's body leaves changed in the session that called it, as PostgreSQL's GUC stack does
 * (guc.c, AtEOXact_GUC; CREATE FUNCTION, "SET clause"): a {@code SET}, {@code RESET} or {@code set_config(...,
 * false)} in the body lasts after the routine returns, whether or not the routine has SET clauses of its own,
 * which restore only the values they saved (a plain SET of the same setting overrides even that); a {@code SET
 * LOCAL} or {@code set_config(..., true)} lasts until the calling transaction ends, unless a routine it runs in
 * has a SET clause for that setting, which restores it when that routine exits. Routines the body calls leave
 * theirs too, followed as {@link IndirectQueries#MAX_CALL_DEPTH} deep, a recursive call once. A rolled-back
 * transaction undoes them all; that is the session's to track.
 *
 * <p>A body is read as written: a SET in a branch not taken is counted as if it ran, and so is one in a PL/pgSQL
 * {@code BEGIN ... EXCEPTION} block, whose subtransaction an error caught there rolls back with the SET; the
 * COMMIT of a procedure, which makes its SETs before it outlast a later failure of the CALL, is not seen (the
 * session undoes them with the failed statement). Only the few routines whose bodies hold a setting change, or
 * call one that does, are read; the rest leave nothing at no cost.
 */
final class SettingsLeft {

    private final RoutineDefinitions definitions;
    /** The routines that leave something, each with what, in order. */
    private final Map<Routine, List<SettingChange>> left = new HashMap<>();

    private SettingsLeft(RoutineDefinitions definitions) {
        this.definitions = definitions;
    }

    /** Per routine of {@code definitions} that leaves a setting changed, the changes in the order it makes them. */
    static Map<Routine, List<SettingChange>> of(RoutineDefinitions definitions, Collection<Routine> routines) {
        Set<Routine> setters = new LinkedHashSet<>();
        for (Routine routine : routines) {
            if (routine.queries().stream().anyMatch(query -> change(query) != null)) {
                setters.add(routine);
            }
        }
        if (setters.isEmpty()) {
            return Map.of();
        }
        addCallers(definitions, routines, setters);
        SettingsLeft reader = new SettingsLeft(definitions);
        for (Routine setter : setters) {
            reader.leftBy(setter, new ArrayList<>(List.of(setter)), setters);
        }
        reader.left.values().removeIf(List::isEmpty);
        return Map.copyOf(reader.left);
    }

    /** Adds to {@code setters} the routines that call one, until none is added. */
    private static void addCallers(RoutineDefinitions definitions, Collection<Routine> routines, Set<Routine> setters) {
        Map<Routine, List<String>> lowerCase = new HashMap<>();
        boolean added = true;
        while (added) {
            added = false;
            Set<String> names = new HashSet<>();
            setters.forEach(setter -> names.add(setter.name().toLowerCase(Locale.ROOT)));
            for (Routine routine : routines) {
                if (setters.contains(routine)) {
                    continue;
                }
                List<String> lower = lowerCase.computeIfAbsent(routine, r -> r.queries().stream()
                        .map(query -> query.toLowerCase(Locale.ROOT)).toList());
                if (callsOneOf(definitions, routine, lower, names, setters)) {
                    setters.add(routine);
                    added = true;
                }
            }
        }
    }

    /**
     * Whether a query of {@code routine} ({@code lower}: in lower case) calls one of {@code setters}, whose names
     * are {@code names}: lexed only when it holds one of them.
     */
    private static boolean callsOneOf(RoutineDefinitions definitions, Routine routine, List<String> lower,
                                      Set<String> names, Set<Routine> setters) {
        for (int i = 0; i < lower.size(); i++) {
            String query = lower.get(i);
            if (names.stream().anyMatch(query::contains)
                    && definitions.calledIn(routine.queries().get(i)).stream().anyMatch(setters::contains)) {
                return true;
            }
        }
        return false;
    }

    /** What {@code routine}, last of {@code chain}, leaves; remembered once complete. */
    private List<SettingChange> leftBy(Routine routine, List<Routine> chain, Set<Routine> setters) {
        List<SettingChange> known = left.get(routine);
        if (known != null) {
            return known;
        }
        Set<String> restored = new HashSet<>();
        for (String setting : routine.settings()) {
            int equals = setting.indexOf('=');
            restored.add((equals < 0 ? setting : setting.substring(0, equals)).toLowerCase(Locale.ROOT));
        }
        List<SettingChange> changes = new ArrayList<>();
        for (String query : routine.queries()) {
            SettingChange own = change(query);
            List<SettingChange> made = own != null ? List.of(own) : called(query, chain, setters);
            for (SettingChange change : made) {
                if (change.scope() == SettingChange.Scope.SESSION || !restored.contains(change.name())) {
                    changes.add(change);
                }
            }
        }
        if (chain.size() == 1) {
            left.put(routine, List.copyOf(changes));
        }
        return changes;
    }

    /** What the routines {@code query} calls leave, those not already being followed. */
    private List<SettingChange> called(String query, List<Routine> chain, Set<Routine> setters) {
        if (chain.size() >= IndirectQueries.MAX_CALL_DEPTH) {
            return List.of();
        }
        List<SettingChange> changes = new ArrayList<>();
        for (Routine callee : definitions.calledIn(query)) {
            if (setters.contains(callee) && !chain.contains(callee)) {
                chain.add(callee);
                changes.addAll(leftBy(callee, chain, setters));
                chain.removeLast();
            }
        }
        return changes;
    }

    /**
     * The setting change {@code query} is, or null; lexed only when it may be one: a SET or RESET is the
     * statement's first word, a set_config call is in it.
     */
    static SettingChange change(String query) {
        String start = query.stripLeading();
        boolean may = start.regionMatches(true, 0, "set", 0, 3) || start.regionMatches(true, 0, "reset", 0, 5)
                || query.toLowerCase(Locale.ROOT).contains("set_config");
        LexicalAnalyzer lexer = RoutineDefinitions.LEXER;
        return may ? lexer.reader().settingChange(lexer.tokens(query)).orElse(null) : null;
    }
}
