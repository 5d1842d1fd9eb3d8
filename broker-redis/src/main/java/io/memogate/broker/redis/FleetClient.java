package io.memogate.broker.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.memogate.broker.gateway.CompileMemoryRetention;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * One instance's calls to the gateway functions of one server (gateways.lua), over Lettuce: one connection
 * for the calls, which Redis runs in the order they were sent, and one subscribed to the instance's wake-up
 * channel.
 *
 * <p>A Redis that lost the functions (restarted, flushed, failed over to a replica that never had them) gets
 * them again and the call is repeated; one that lost the gateways' settings gets them from {@code
 * configuration}. Both errors come before the function changes anything, so the repeat cannot act twice.
 * While the connection is down, calls fail at once rather than queue: a statement is refused, not held.
 */
final class FleetClient implements AutoCloseable {

    static final String LIBRARY = readLibrary();
    /** A Redis that restarted empty lacks both the functions and the settings: two repairs, one after the other. */
    private static final int REPAIRS = 2;

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final StatefulRedisPubSubConnection<String, String> wakeups;
    private final String[] keys;
    private final String instance;
    private final String leaseMillis;
    private final Duration timeout;
    private final AnswerOrder order;
    private final Supplier<String[]> configuration;
    private final String where;
    /** Set by the first answer: from then on a missing lease means this instance was reaped. */
    private volatile boolean joined;

    /**
     * @param replies where answers are handled, in the order Redis gave them
     * @param configuration mg_configure's arguments as they are now, for a Redis that lost them
     * @throws io.lettuce.core.RedisConnectionException when Redis cannot be reached
     */
    FleetClient(FleetSettings settings, String server, String instance, Duration timeout, Executor replies,
                Supplier<String[]> configuration) {
        RedisURI uri = RedisURI.create(settings.redisUri());
        this.where = uri.getSentinels().isEmpty() ? uri.getHost() + ":" + uri.getPort()
                : "the primary " + uri.getSentinelMasterId() + " of Sentinels " + uri.getSentinels().stream()
                        .map(s -> s.getHost() + ":" + s.getPort()).collect(Collectors.joining(","));
        this.keys = new String[] {settings.keyPrefix(server)};
        this.instance = instance;
        this.leaseMillis = Long.toString(settings.lease().toMillis());
        this.timeout = timeout;
        this.order = new AnswerOrder(replies);
        this.configuration = configuration;
        this.client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder()
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .build());
        StatefulRedisConnection<String, String> calls = null;
        try {
            calls = client.connect();
            calls.sync().functionLoad(LIBRARY, true);
            this.connection = calls;
            this.wakeups = client.connectPubSub();
        } catch (RuntimeException e) {
            if (calls != null) {
                calls.close();
            }
            client.shutdown();
            throw e;
        }
    }

    /** Runs {@code wake} (on a Lettuce thread) whenever another instance decided one of this one's tickets. */
    void onWake(Runnable wake) {
        wakeups.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                wake.run();
            }
        });
        wakeups.sync().subscribe(keys[0] + "wake:" + instance);
    }

    /**
     * Calls {@code function}; {@code then} gets its answer, or why none came, on the replies executor, in the order
     * the calls were sent, which is the order Redis ran them ({@link AnswerOrder}).
     */
    void call(BiConsumer<FleetReply, Throwable> then, String function, String... args) {
        order.send(() -> callHere(function, args),
                (reply, failure) -> then.accept(reply, failure == null ? null : unavailable(function, failure)));
    }

    /**
     * Calls {@code function} and waits for its answer, at most the command timeout for each round trip it takes;
     * {@code handle} gets the answer on the replies executor, in order with the others. For the views: the
     * caller waits for the answer, not for its handling, so a view asked from the replies thread cannot wait
     * for itself.
     */
    FleetReply callAndWait(Consumer<FleetReply> handle, String function, String... args) {
        return await(function, order.send(() -> callHere(function, args), (reply, failure) -> {
            if (failure == null) {
                handle.accept(reply);
            }
        }));
    }

    /** Calls {@code function} and waits for its answer, which nothing handles: joining and leaving. */
    FleetReply callAndWait(String function, String... args) {
        return await(function, callHere(function, args));
    }

    private FleetReply await(String function, CompletableFuture<FleetReply> answer) {
        try {
            return answer.get(waitMillis(1 + 2 * REPAIRS), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(function, e);
        } catch (ExecutionException | TimeoutException e) {
            throw unavailable(function, e);
        }
    }

    /**
     * Calls one of the functions that are not gateway transitions (the broker's lease and publication): no
     * instance arguments, no decisions, a plain list as the answer; waits at most the command timeout for each
     * round trip it takes.
     */
    List<Object> callPlainAndWait(String function, String... args) {
        CompletableFuture<List<Object>> call = plain(function, args).exceptionallyCompose(failure ->
                String.valueOf(cause(failure).getMessage()).contains("Function not found")
                        ? connection.async().functionLoad(LIBRARY, true).toCompletableFuture()
                                .thenCompose(loaded -> plain(function, args))
                        : CompletableFuture.failedFuture(failure));
        try {
            return call.get(waitMillis(3), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(function, e);
        } catch (ExecutionException | TimeoutException e) {
            throw unavailable(function, e);
        }
    }

    /**
     * How long a caller waits for a call of at most {@code roundTrips} commands (the call, and for each repair the
     * repair and the call again). Lettuce ends each command after the command timeout, so a Redis that is away
     * fails the call within one timeout; one timeout for the whole chain failed calls that were slow, not lost
     * (loading the functions on a loaded machine).
     */
    private long waitMillis(int roundTrips) {
        return timeout.toMillis() * roundTrips + 100;
    }

    private CompletableFuture<List<Object>> plain(String function, String[] args) {
        return connection.async().<List<Object>>fcall(function, ScriptOutputType.MULTI, keys, args)
                .toCompletableFuture();
    }

    /** The answer completes on a Lettuce thread. */
    private CompletableFuture<FleetReply> callHere(String function, String[] args) {
        return callHere(function, args, REPAIRS);
    }

    private CompletableFuture<FleetReply> callHere(String function, String[] args, int repairs) {
        return send(function, args).exceptionallyCompose(failure -> {
            String message = String.valueOf(cause(failure).getMessage());
            CompletableFuture<?> repair;
            if (repairs == 0) {
                return CompletableFuture.failedFuture(failure);
            } else if (message.contains("Function not found")) {
                repair = connection.async().functionLoad(LIBRARY, true).toCompletableFuture();
            } else if (message.startsWith("MEMOGATE_NOCONFIG")) {
                repair = send("mg_configure", configuration.get());
            } else {
                return CompletableFuture.failedFuture(failure);
            }
            // A repair made by a gateway function answers as one: what it says (reaped, decisions) is kept.
            return repair.thenCompose(repaired -> callHere(function, args, repairs - 1).thenApply(reply ->
                    repaired instanceof FleetReply first ? first.then(reply) : reply));
        });
    }

    private CompletableFuture<FleetReply> send(String function, String[] args) {
        String[] all = new String[args.length + 3];
        all[0] = instance;
        all[1] = leaseMillis;
        all[2] = joined ? "1" : "0";
        System.arraycopy(args, 0, all, 3, args.length);
        return connection.async().<List<Object>>fcall(function, ScriptOutputType.MULTI, keys, all)
                .toCompletableFuture().thenApply(raw -> {
                    joined = true;
                    return FleetReply.parse(raw);
                });
    }

    private FleetUnavailableException unavailable(String function, Throwable failure) {
        Throwable cause = cause(failure);
        if (cause instanceof FleetUnavailableException already) {
            return already;
        }
        return new FleetUnavailableException("the fleet's Redis at " + where + " did not run " + function + ": "
                + cause.getMessage(), cause);
    }

    /** What a failed {@link #call} completed with, unwrapped. */
    static RuntimeException asUnavailable(Throwable failure) {
        Throwable cause = cause(failure);
        return cause instanceof RuntimeException unchecked ? unchecked
                : new FleetUnavailableException("the fleet's Redis failed: " + cause, cause);
    }

    private static Throwable cause(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** mg_configure's arguments: t0, each tier's limit, fraction, maxQueue and timeout, retention, target. */
    static String[] configuration(GatewaySettings settings, CompileMemoryRetention retention, long target) {
        List<String> args = new ArrayList<>();
        args.add(Long.toString(settings.staticThresholdBytes()));
        for (Tier tier : Tier.values()) {
            TierSettings ts = settings.tier(tier);
            args.add(Integer.toString(ts.limit()));
            args.add(Double.toString(ts.fraction()));
            args.add(Integer.toString(ts.maxQueue()));
            args.add(Long.toString(ts.timeout().toMillis()));
        }
        args.add(retention.compilesStay() ? "1" : "0");
        args.add(Long.toString(target));
        return args.toArray(String[]::new);
    }

    /** Where the fleet's Redis is, for messages (without a password the URI may hold). */
    String where() {
        return where;
    }

    @Override
    public void close() {
        try {
            wakeups.close();
            connection.close();
        } finally {
            client.shutdown();
        }
    }

    private static String readLibrary() {
        try (InputStream in = FleetClient.class.getResourceAsStream("gateways.lua")) {
            if (in == null) {
                throw new IllegalStateException("gateways.lua is missing from the memogate-broker-redis jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
