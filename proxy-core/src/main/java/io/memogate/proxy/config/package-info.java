/**
 * The proxy's configuration: one YAML file read into immutable records.
 *
 * <p>{@link io.memogate.proxy.config.ConfigLoader} reads the file; {@link io.memogate.proxy.config.MemogateConfig}
 * is the result, valid by construction (its constructor runs every rule), and a reload replaces it whole.
 * Every problem in a file is reported at once, one line each, naming the field as the file spells it
 * ({@code backends[1].port must be in 1..65535, was 70000}). Sizes and durations are written as in
 * postgresql.conf ({@link io.memogate.proxy.config.ByteSize}, {@link io.memogate.proxy.config.Durations}).
 * {@code memogate-example.yaml} beside these classes shows every setting; the tests load it.
 */
package io.memogate.proxy.config;
