package io.memogate.proxy.config;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One setting of a gateway tier, {@code admission.tiers.<tier>.<field>}, changed at run time by the admin
 * console's {@code SET tiers.medium.limit = 4}. The value is written as in the file and checked by the
 * same rules, with messages that name the field; the change is made on a copy of the running
 * configuration, never on the file.
 *
 * @param tier the gateway
 * @param field {@code limit}, {@code fraction}, {@code maxQueue} or {@code timeout}, spelt as in the file
 */
public record TierField(Tier tier, String field) {

    private static final List<String> FIELDS = List.of("limit", "fraction", "maxQueue", "timeout");

    /** The settings SET accepts, as the file spells them (for messages that list them). */
    public static List<String> paths() {
        return Arrays.stream(Tier.values())
                .flatMap(tier -> FIELDS.stream()
                        .filter(field -> tier != Tier.LARGE || !field.equals("fraction"))
                        .map(field -> "tiers." + tier.configName() + "." + field))
                .toList();
    }

    /**
     * The tier setting {@code key} names: {@code tiers.small.limit} or {@code admission.tiers.small.limit},
     * in any letter case (SQL habits); empty when it names none, including {@code tiers.large.fraction},
     * which does not exist because nothing comes after LARGE.
     */
    public static Optional<TierField> parse(String key) {
        String path = key.strip().toLowerCase(Locale.ROOT);
        if (path.startsWith("admission.")) {
            path = path.substring("admission.".length());
        }
        String[] parts = path.split("\\.", -1);
        if (parts.length != 3 || !parts[0].equals("tiers")) {
            return Optional.empty();
        }
        Optional<Tier> tier = Arrays.stream(Tier.values())
                .filter(t -> t.configName().equals(parts[1])).findFirst();
        Optional<String> field = FIELDS.stream().filter(f -> f.equalsIgnoreCase(parts[2])).findFirst();
        if (tier.isEmpty() || field.isEmpty() || tier.get() == Tier.LARGE && field.get().equals("fraction")) {
            return Optional.empty();
        }
        return Optional.of(new TierField(tier.get(), field.get()));
    }

    /** The path as the file and SHOW CONFIG spell it: {@code admission.tiers.small.limit}. */
    public String path() {
        return "admission.tiers." + tier.configName() + "." + field;
    }

    /** The current value, as the file would write it. */
    public String valueIn(MemogateConfig config) {
        TierSettings settings = config.admission().gatewaySettings().tier(tier);
        return switch (field) {
            case "limit" -> String.valueOf(settings.limit());
            case "fraction" -> BigDecimal.valueOf(settings.fraction()).stripTrailingZeros().toPlainString();
            case "maxQueue" -> String.valueOf(settings.maxQueue());
            default -> Durations.format(settings.timeout());
        };
    }

    /**
     * {@code config} with this field set to {@code value}.
     *
     * @throws ConfigException naming the field when the value does not parse or is out of range
     */
    public MemogateConfig apply(MemogateConfig config, String value) {
        Problems problems = new Problems();
        String path = path();
        TierSettings current = config.admission().gatewaySettings().tier(tier);
        long limit = current.limit();
        double fraction = current.fraction();
        long maxQueue = current.maxQueue();
        Duration timeout = current.timeout();
        try {
            switch (field) {
                case "limit" -> limit = whole(value);
                case "fraction" -> fraction = ConfigValues.decimal(value);
                case "maxQueue" -> maxQueue = whole(value);
                default -> timeout = Durations.parse(value);
            }
        } catch (IllegalArgumentException e) {
            String reason = e.getMessage();
            problems.add(path, path + (reason.startsWith("must ") ? " " : ": ") + reason);
            problems.throwIfAny(null);
        }
        if (!ConfigValidator.checkTier(problems, path.substring(0, path.lastIndexOf('.')), limit, fraction, maxQueue,
                timeout)) {
            problems.throwIfAny(null);
        }
        GatewaySettings gateways = config.admission().gatewaySettings()
                .with(tier, new TierSettings((int) limit, fraction, (int) maxQueue, timeout));
        return config.withAdmission(config.admission().withGatewaySettings(gateways));
    }

    private static long whole(String text) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be a whole number, was '" + text + "'", e);
        }
    }
}
