package io.memogate.proxy.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The YAML file as Jackson binds it, before defaults and validation: the shape (which keys, lists and
 * mappings) is Jackson's to check, the values are not. Every scalar is kept as the text the user wrote
 * and absent keys are null, so that {@link DocumentConverter} can report "must be a whole number, was
 * 'abc'" for each bad value with its field path and carry on to the next. Had the fields been typed
 * (int, Duration), Jackson would stop at the first bad value, and would quietly turn a port of 6432.5
 * into 6432.
 *
 * <p>Plain classes with fields, not records, although nothing outside the loader ever sees them: Jackson
 * binds records through their constructor and so buffers unknown keys until the mapping ends, reporting
 * them without their line and path. Fields are bound as the parser meets each key.
 */
final class ConfigDocument {

    List<Listener> listeners;
    List<Backend> backends;
    Limits limits;
    Admin admin;
    Admission admission;
    Broker broker;
    Estimator estimator;
    Recycle recycle;
    Network network;
    Fleet fleet;

    static final class Listener {
        String host;
        String port;
        ServerTls tls;
        String protocol;
    }

    static final class ServerTls {
        String certificate;
        String privateKey;
    }

    static final class Backend {
        String name;
        String host;
        String port;
        List<String> databases;
        @JsonProperty("default")
        String isDefault;
        BackendTls tls;
        BackendTds tds;
    }

    static final class BackendTds {
        String followRouting;
    }

    static final class BackendTls {
        String mode;
        String trustedCertificates;
        String serverName;
        String strict;
    }

    static final class Limits {
        String maxMessageBytes;
        String connectTimeout;
        String shutdownTimeout;
        String maxClientConnections;
        String loginTimeout;
    }

    static final class Admin {
        AdminHttp http;
        List<String> users;
        String authDatabase;
        String watchInterval;
    }

    static final class AdminHttp {
        String host;
        String port;
        String enabled;
    }

    static final class Admission {
        String enabled;
        String waitNotice;
        String holdWhileRunning;
        String cpus;
        String staticThreshold;
        String statementRecords;
        Tiers tiers;
        Search search;
        Degrade degrade;
    }

    /** The predicted join search times from which a statement takes each tier. */
    static final class Search {
        String small;
        String medium;
        String large;
    }

    static final class Degrade {
        String enabled;
        List<String> roles;
        List<String> applicationNames;
        String after;
    }

    static final class Tiers {
        Tier small;
        Tier medium;
        LargeTier large;
    }

    static final class Tier {
        String limit;
        String fraction;
        String maxQueue;
        String timeout;
    }

    /** No fraction: a statement that holds LARGE needs nothing further, so "large.fraction" is an unknown key. */
    static final class LargeTier {
        String limit;
        String maxQueue;
        String timeout;
    }

    static final class Broker {
        Monitor monitor;
        String interval;
        String gracePeriod;
        String compileShare;
        String hostMemory;
        String coLocated;
        String staticTarget;
        String minimumTarget;
    }

    static final class Estimator {
        String coefficients;
        String mysqlCoefficients;
        String sqlserverCoefficients;
    }

    static final class Recycle {
        String retainedAbove;
        String authFile;
    }

    static final class Network {
        String transport;
        String eventLoops;
        Keepalive keepalive;
    }

    static final class Keepalive {
        String idle;
        String interval;
        String count;
    }

    static final class Fleet {
        String redis;
        String sentinel;
        String name;
        String lease;
        String pollInterval;
    }

    static final class Monitor {
        String user;
        String password;
        String database;
        String backend;
    }
}
