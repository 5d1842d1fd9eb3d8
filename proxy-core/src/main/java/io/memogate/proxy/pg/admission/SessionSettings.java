package io.memogate.proxy.pg.admission;

import io.memogate.estimator.RoutineDefinitions;
import io.memogate.estimator.lexer.LexicalAnalysis;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.SettingChange;
import io.memogate.estimator.lexer.StatementAnalysis;
import io.memogate.estimator.lexer.StatementKind;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.admission.AdmissionSupport;
import io.memogate.proxy.admission.Words;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.postgres.catalog.RoleSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The planner settings one session plans with, so the estimate matches what its server process will
 * do: the server's defaults (from the broker), then its role's and database's settings (ALTER ROLE /
 * ALTER DATABASE ... SET, read with the index catalog: {@link RoleSettings}; PostgreSQL applies them at
 * login only, so the first read that has them is kept for the session's life), then the startup packet's
 * options, then the session's own SET and RESET, then SET LOCAL for the current transaction — the order
 * in which PostgreSQL's GUC sources override each other. The SETs of the routines a statement calls, as the
 * database's catalog was last read, and of a DO block's body count as the statement's own: they outlast the
 * routine, SET LOCAL until the transaction ends ({@link RoutineDefinitions#settingsLeftBy}).
 *
 * <p>Changes are applied when the statement is sent, not when the server confirms it, so that the
 * statements after a SET in the same query string are estimated with it. A SET whose value the server
 * refuses ({@link PlannerSettings#accepts}) changes nothing, as on the server: the value before it stays
 * in force. SET LOCAL ends with the transaction. The session SETs of a transaction block that rolls back
 * are undone at the ReadyForQuery that ends it, as PostgreSQL undoes them; so are those sent outside a
 * block when the server then reports an error before that ReadyForQuery, since the server ran them in an
 * implicit transaction that the error rolled back (a query string of several statements, or an extended
 * protocol batch up to its Sync). Two imprecisions are accepted, and only affect the estimate: ROLLBACK
 * TO SAVEPOINT (its tag is "ROLLBACK" too) and an error inside a savepoint undo the transaction's SETs
 * even when it then commits; and a client that pipelines a SET behind a batch that fails loses that SET
 * here, though the server applies it.
 *
 * <p>Not thread-safe: one instance per session, used on its event loop.
 */
public final class SessionSettings {

    /** The settings {@link PlannerSettings} models; every other SET is irrelevant to admission. */
    private static final Set<String> PLANNER_SETTINGS = Set.copyOf(PlannerSettings.NAMES);

    private final Supplier<PlannerSettings> serverDefaults;
    /** A database's ALTER ROLE / ALTER DATABASE settings as last read; {@link RoleSettings#NONE} before. */
    private final Function<String, RoleSettings> roleSettings;
    /** The first read of them this session saw; null before one. */
    private RoleSettings loginRoles;
    /** A database's routines as last read; {@link RoutineDefinitions#NONE} before. */
    private final Function<String, RoutineDefinitions> routines;
    private final LexicalAnalyzer analyzer;
    /** The session's database and role, from its startup packet; null before it. */
    private String database;
    private String role;
    private final Map<String, String> startup = new LinkedHashMap<>();
    private Map<String, String> session = new LinkedHashMap<>();
    private final Map<String, String> local = new LinkedHashMap<>();
    /**
     * The session layer as it was before the changes not yet committed by the server: those of the open
     * transaction block, or those sent outside one since the last idle ReadyForQuery. Null when none.
     */
    private Map<String, String> beforeUncommitted;
    private boolean rolledBack;
    /**
     * Whether the texts sent since the last ReadyForQuery left a transaction block open, when one of them opened
     * or ended one; null when none did, and the last ReadyForQuery's status holds. A driver pipelines BEGIN with
     * the statements after it, before one Sync: a SET LOCAL among them is in the block the BEGIN opened.
     */
    private Boolean blockAfterSent;

    private PlannerSettings cachedBase;
    private RoleSettings cachedRoles;
    private PlannerSettings cached;

    public SessionSettings(Supplier<PlannerSettings> serverDefaults, LexicalAnalyzer analyzer) {
        this(serverDefaults, database -> RoleSettings.NONE, analyzer);
    }

    /** @param roleSettings a database's role and database settings as last read, never waiting for a read */
    public SessionSettings(Supplier<PlannerSettings> serverDefaults, Function<String, RoleSettings> roleSettings,
                           LexicalAnalyzer analyzer) {
        this(serverDefaults, roleSettings, database -> RoutineDefinitions.NONE, analyzer);
    }

    /**
     * @param roleSettings a database's role and database settings as last read, never waiting for a read
     * @param routines a database's routines as last read, likewise
     */
    public SessionSettings(Supplier<PlannerSettings> serverDefaults, Function<String, RoleSettings> roleSettings,
                           Function<String, RoutineDefinitions> routines, LexicalAnalyzer analyzer) {
        this.serverDefaults = serverDefaults;
        this.roleSettings = roleSettings;
        this.routines = routines;
        this.analyzer = analyzer;
    }

    /**
     * A session's settings over the support {@code routed} gives at each read: the support of the server the
     * session is routed to, which is known only after its startup message, while the settings are made with
     * the session. Nothing is read from it before the session's first statement.
     */
    public static SessionSettings over(Supplier<AdmissionSupport> routed, LexicalAnalyzer analyzer) {
        return new SessionSettings(() -> PostgresServer.plannerSettings(routed.get().serverDefaults().get()),
                database -> PostgresServer.roleSettings(routed.get().loginSettings().apply(database)),
                database -> routed.get().catalogs().apply(database).routines(), analyzer);
    }

    /** The StartupMessage's parameters: planner settings given directly, or in {@code options} as -c / --. */
    public void startupParameters(Map<String, String> parameters) {
        role = parameters.get("user");
        database = parameters.getOrDefault("database", role); // PostgreSQL's default: the user's name
        parameters.forEach((name, value) -> {
            if (name.equals("options")) {
                StartupOptions.parse(value).forEach(this::startupOption);
            } else {
                startupOption(name, value);
            }
        });
        cached = null;
    }

    private void startupOption(String name, String value) {
        String key = name.toLowerCase(Locale.ROOT);
        if (PLANNER_SETTINGS.contains(key)) {
            startup.put(key, value);
        }
    }

    /**
     * A query text on its way to the server: applies the SET / RESET statements it holds, those of the routines
     * it calls, and the transaction block it opens or ends. Texts that cannot hold one (no "set" in them nor the
     * name of a routine that sets nor a first word of BEGIN, COMMIT and the like: the common case) are not lexed.
     */
    public void sent(String sql, boolean inTransaction) {
        SentText text = SentText.read(sql, analyzer, routines());
        if (text.maySet() || text.mayOpenOrEnd()) {
            sent(text.lexed(), text.leftByCalls(), inTransaction);
        }
    }

    /**
     * As {@link #sent(String, boolean)}, with the text read already ({@link SentText}, maybe on another thread).
     *
     * @param leftByCalls per statement of {@code lexed}, what the routines it calls leave ({@link #leftByCalls})
     */
    public void sent(LexicalAnalysis lexed, List<List<SettingChange>> leftByCalls, boolean inTransaction) {
        boolean transaction = blockAfterSent != null ? blockAfterSent : inTransaction;
        List<StatementAnalysis> statements = lexed.statements();
        for (int i = 0; i < statements.size(); i++) {
            StatementAnalysis statement = statements.get(i);
            switch (statement.kind()) {
                case BEGIN -> transaction = true;
                case COMMIT, ROLLBACK, PREPARE_TRANSACTION -> transaction = false;
                default -> { }
            }
            if (opensOrEnds(statement.kind())) {
                blockAfterSent = transaction;
            }
            boolean inBlock = transaction;
            statement.settingChange().ifPresent(change -> apply(change, inBlock));
            leftByCalls.get(i).forEach(change -> apply(change, inBlock));
        }
    }

    /**
     * Per statement of {@code lexed}, the text {@code sql}, the setting changes that the routines it calls leave
     * in the session, and a DO block's body ({@link RoutineDefinitions#settingsLeftBy}). Each statement is lexed
     * again for them, so this is done where the text is read, off the event loop for a long one: only for a DO
     * block, or when the text names one of {@code routines} that sets ({@code callsSetter}).
     */
    static List<List<SettingChange>> leftByCalls(String sql, LexicalAnalysis lexed, RoutineDefinitions routines,
                                                 boolean callsSetter) {
        return lexed.statements().stream().map(statement -> callsSetter || statement.kind() == StatementKind.DO
                ? routines.settingsLeftBy(sql, statement) : List.<SettingChange>of()).toList();
    }

    /** The routines of the session's database as last read, whose calls may change its settings. */
    public RoutineDefinitions routines() {
        return database == null ? RoutineDefinitions.NONE : routines.apply(database);
    }

    /** The server answered ROLLBACK: session SETs of this transaction are undone when it ends. */
    public void rollbackSeen() {
        rolledBack = true;
    }

    /**
     * The server reported an error: the transaction it happened in, implicit or not, can only roll back,
     * so the SETs not yet committed are undone at the idle ReadyForQuery that ends it.
     */
    public void errorSeen() {
        rolledBack = true;
    }

    /** Whether a statement of {@code kind} opens or ends a transaction block. */
    public static boolean opensOrEnds(StatementKind kind) {
        return switch (kind) {
            case BEGIN, COMMIT, ROLLBACK, PREPARE_TRANSACTION -> true;
            default -> false;
        };
    }

    /** ReadyForQuery: {@code idle} when no transaction block is open any more. */
    public void readyForQuery(boolean idle) {
        // Its status says where the texts sent before its Sync left the block. A BEGIN pipelined behind a later
        // Sync is then forgotten until that Sync's own ReadyForQuery: an imprecision of the estimate only.
        blockAfterSent = null;
        if (!idle) {
            return;
        }
        if (rolledBack && beforeUncommitted != null) {
            session = beforeUncommitted;
            cached = null;
        }
        beforeUncommitted = null;
        rolledBack = false;
        if (!local.isEmpty()) {
            local.clear();
            cached = null;
        }
    }

    /** The settings the session's next statement is planned with. */
    public PlannerSettings current() {
        PlannerSettings base = serverDefaults.get();
        RoleSettings roles = loginRoles();
        if (cached == null || base != cachedBase || roles != cachedRoles) {
            cachedBase = base;
            cachedRoles = roles;
            cached = layered(base, roles.of(role), List.of(startup, session, local));
        }
        return cached;
    }

    /**
     * The settings of the next statement as they will be with {@code roles} as the role and database layer,
     * the other layers as they are now (copied): for a statement that waits for the read that brings them.
     */
    public Function<RoleSettings, PlannerSettings> withRoleSettings() {
        PlannerSettings base = serverDefaults.get();
        String loginRole = role;
        List<Map<String, String>> above = List.of(Map.copyOf(startup), Map.copyOf(session), Map.copyOf(local));
        return roles -> layered(base, roles.of(loginRole), above);
    }

    /** {@code base}, then the role layer, then the startup packet's, the session's and SET LOCAL's. */
    private static PlannerSettings layered(PlannerSettings base, Map<String, String> roles,
                                           List<Map<String, String>> above) {
        PlannerSettings settings = base;
        for (Map.Entry<String, String> setting : roles.entrySet()) {
            settings = settings.with(setting.getKey(), setting.getValue());
        }
        for (Map<String, String> layer : above) {
            for (Map.Entry<String, String> setting : layer.entrySet()) {
                settings = settings.with(setting.getKey(), setting.getValue());
            }
        }
        return settings;
    }

    /**
     * The role and database settings the session logged in with. PostgreSQL applies them at login and not
     * again, so an ALTER ROLE made since changes new sessions only: the first read this session sees is
     * kept (a read taken after login is still the login's unless the settings changed in between).
     */
    private RoleSettings loginRoles() {
        if (loginRoles != null) {
            return loginRoles;
        }
        RoleSettings read = database == null ? RoleSettings.NONE : roleSettings.apply(database);
        if (read != RoleSettings.NONE) {
            loginRoles = read;
        }
        return read;
    }

    private void apply(SettingChange change, boolean inTransaction) {
        String name = change.name();
        if (change.action() != SettingChange.Action.RESET_ALL && !PLANNER_SETTINGS.contains(name)) {
            return;
        }
        boolean refused = change.action() == SettingChange.Action.SET
                && !PlannerSettings.accepts(name, change.value().orElseThrow());
        if (refused) {
            return; // the server refuses it too: "invalid value for parameter"
        }
        if (beforeUncommitted == null) {
            beforeUncommitted = new LinkedHashMap<>(session);
        }
        Map<String, String> layer = change.scope() == SettingChange.Scope.LOCAL ? local : session;
        if (layer == session) {
            local.remove(name); // a session SET also replaces this transaction's SET LOCAL
        }
        switch (change.action()) {
            case SET -> {
                // SET LOCAL outside a transaction block only warns, and changes nothing.
                if (change.scope() == SettingChange.Scope.SESSION || inTransaction) {
                    layer.put(name, change.value().orElseThrow());
                }
            }
            // Back to the value the session started with: its startup option, else the server's default.
            // (SET LOCAL name TO DEFAULT is taken as the same; it differs only until the transaction ends.)
            case SET_DEFAULT, RESET -> {
                local.remove(name);
                if (change.scope() == SettingChange.Scope.SESSION) {
                    session.remove(name);
                }
            }
            case RESET_ALL -> {
                session.clear();
                local.clear();
            }
        }
        cached = null;
    }

    /** Whether the text contains "set" in any case: every SET, RESET and set_config does, and a DO block's. */
    public static boolean mayHoldSet(String sql) {
        return Words.containsIgnoreCase(sql, "set");
    }
}
