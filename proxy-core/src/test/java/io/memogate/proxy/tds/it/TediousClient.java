package io.memogate.proxy.tds.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memogate.proxy.testing.NodePackages;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * tedious, the Node.js TDS driver (the version test resource {@code tds/tedious}'s lockfile pins), in a node
 * process of its own, driven a command at a time by {@code driver.js}: the test sends a request, may send a cancel
 * while it waits, and reads what tedious reported, as the application's callback got it. One connection per
 * client; the process ends with {@link #close()}.
 */
final class TediousClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Far longer than any answer takes on a loaded machine; bounds only a test that fails. */
    private static final long ANSWER_SECONDS = 60;

    private final Process process;
    private final OutputStream commands;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, BlockingQueue<JsonNode>> answers = new ConcurrentHashMap<>();
    /** The connection's events ('error', 'end') and whatever else the program printed, in order. */
    final List<String> events = new CopyOnWriteArrayList<>();

    private TediousClient(Process process) {
        this.process = process;
        this.commands = process.getOutputStream();
        Thread reader = new Thread(this::read, "tedious-client-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** A new node process with tedious loaded; the test is skipped, saying why, without Node.js and npm. */
    static TediousClient start() throws IOException, InterruptedException {
        Path installed = NodePackages.installed("tds/tedious");
        Process process = new ProcessBuilder("node", "driver.js").directory(installed.toFile())
                .redirectErrorStream(true).start();
        return new TediousClient(process);
    }

    /** The installed tedious's version, as its package.json says. */
    static String version() throws IOException, InterruptedException {
        Path installed = NodePackages.installed("tds/tedious");
        return JSON.readTree(installed.resolve("node_modules/tedious/package.json").toFile()).get("version").asText();
    }

    private void read() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                JsonNode message;
                try {
                    message = JSON.readTree(line);
                } catch (IOException notJson) {
                    events.add(line); // a warning of node's, a stack trace
                    continue;
                }
                if (message.hasNonNull("id")) {
                    queue(message.get("id").asInt()).add(message);
                } else {
                    events.add(line);
                }
            }
        } catch (IOException ended) {
            // the process is gone
        }
    }

    private BlockingQueue<JsonNode> queue(int id) {
        return answers.computeIfAbsent(id, any -> new LinkedBlockingQueue<>());
    }

    /** Sends {@code op} with {@code fields}; its answer comes from {@link #answer(int)}. */
    int send(String op, Map<String, ?> fields) {
        int id = ids.incrementAndGet();
        ObjectNode command = JSON.valueToTree(fields);
        command.put("id", id).put("op", op);
        try {
            commands.write((JSON.writeValueAsString(command) + "\n").getBytes(StandardCharsets.UTF_8));
            commands.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the tedious client is gone: " + events, e);
        }
        return id;
    }

    /** What tedious answered command {@code id}: {@code ok} with rows, or {@code error} as tedious reported it. */
    JsonNode answer(int id) throws InterruptedException {
        JsonNode answer = queue(id).poll(ANSWER_SECONDS, TimeUnit.SECONDS);
        if (answer == null) {
            throw new AssertionError("tedious did not answer command " + id + " in " + ANSWER_SECONDS
                    + " s; its connection's events: " + events);
        }
        return answer;
    }

    /** Whether command {@code id} was answered yet. */
    boolean answered(int id) {
        return !queue(id).isEmpty();
    }

    /** A connect command's fields: to {@code port} of 127.0.0.1, as the target's login, without encryption. */
    static Map<String, Object> login(int port, TdsTarget target) {
        Map<String, Object> fields = new HashMap<>();
        fields.put("port", port);
        fields.put("user", target.user);
        fields.put("password", target.password);
        fields.put("database", target.database);
        fields.put("encrypt", false);
        return fields;
    }

    /** Sends {@code op} and waits for its answer. */
    JsonNode call(String op, Map<String, ?> fields) throws InterruptedException {
        return answer(send(op, fields));
    }

    @Override
    public void close() throws InterruptedException {
        try {
            commands.close(); // the driver closes its connection and exits at the end of its input
        } catch (IOException alreadyGone) {
            // the process has ended
        }
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(15, TimeUnit.SECONDS);
        }
    }
}
