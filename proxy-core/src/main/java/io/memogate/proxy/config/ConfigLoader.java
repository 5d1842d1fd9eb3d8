package io.memogate.proxy.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import io.memogate.broker.redis.FleetSettings;
import java.util.List;
import java.util.Optional;

/**
 * Reads the proxy's YAML configuration file into a {@link MemogateConfig}.
 *
 * <p>Four steps, each adding to one list of problems so that a single run reports every mistake:
 * Jackson binds the text to {@link ConfigDocument} (shape: unknown keys, lists vs. values, YAML
 * syntax); {@link DocumentConverter} parses values and applies defaults; {@link ConfigValidator} checks
 * ranges and the rules that span fields; only then is the record built. Any problem throws
 * {@link ConfigException} listing them all, one per line, each naming its field.
 *
 * <p>Holds one YAMLMapper, which is thread-safe; a loader may be kept and reused for reloads.
 */
public final class ConfigLoader {

    private final DocumentReader reader = new DocumentReader();

    /**
     * Reads {@code file} (UTF-8). Relative TLS paths in it are resolved against the file's directory,
     * so a configuration and its certificates can move together.
     *
     * @throws ConfigException if the file cannot be read or is not a valid configuration
     */
    public MemogateConfig load(Path file) {
        return parse(read(file), file.toAbsolutePath().getParent(), file.toString());
    }

    /**
     * The text of {@code file} (UTF-8), for a caller that keeps it, as a reload does to see whether the
     * file changed.
     *
     * @throws ConfigException if the file cannot be read, naming the file and why
     */
    public String read(Path file) {
        if (Files.isDirectory(file)) {
            throw ConfigException.unreadable(file, "it is a directory, not a YAML file");
        }
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            throw ConfigException.unreadable(file, "file not found");
        } catch (AccessDeniedException e) {
            throw ConfigException.unreadable(file, "permission denied (make it readable to user "
                    + System.getProperty("user.name") + ", who runs the proxy)");
        } catch (CharacterCodingException e) {
            throw new ConfigException(file.toString(), List.of("the file is not UTF-8 text"));
        } catch (IOException e) {
            throw ConfigException.unreadable(file, e.getMessage() != null ? e.getMessage() : e.toString());
        }
    }

    /**
     * Parses the text of {@code file}, read earlier with {@link #read}; relative paths are resolved
     * against the file's directory and problems name the file.
     *
     * @throws ConfigException if the text is not a valid configuration
     */
    public MemogateConfig parseFile(String yaml, Path file) {
        return parse(yaml, file.toAbsolutePath().getParent(), file.toString());
    }

    /**
     * Parses a configuration given as text; relative TLS paths are resolved against {@code baseDirectory}.
     *
     * @throws ConfigException if the text is not a valid configuration
     */
    public MemogateConfig parse(String yaml, Path baseDirectory) {
        return parse(yaml, baseDirectory, null);
    }

    private MemogateConfig parse(String yaml, Path baseDirectory, String source) {
        Problems problems = new Problems();
        ConfigDocument document = reader.read(yaml, problems);
        if (document == null) {
            problems.throwIfAny(source);
            throw new IllegalStateException("no document and no problem"); // read() always records why
        }
        DocumentConverter converter = new DocumentConverter(baseDirectory.toAbsolutePath(), problems);
        List<ListenerConfig> listeners = converter.listeners(document.listeners);
        List<BackendConfig> backends = converter.backends(document.backends);
        LimitsConfig limits = converter.limits(document.limits);
        AdminConfig admin = converter.admin(document.admin);
        AdmissionConfig admission = converter.admission(document.admission);
        BrokerConfig broker = converter.broker(document.broker);
        EstimatorConfig estimator = converter.estimator(document.estimator);
        RecycleConfig recycle = converter.recycle(document.recycle);
        NetworkConfig network = converter.network(document.network);
        Optional<FleetSettings> fleet = converter.fleet(document.fleet);
        ConfigValidator.validate(listeners, backends, limits, admin, admission, broker, network, problems);
        problems.throwIfAny(source);
        return new MemogateConfig(listeners, backends, limits, admin, admission, broker, estimator, recycle, network,
                fleet);
    }
}
