package io.memogate.broker;

/**
 * Receives the broker's state after every poll, good or failed, on the broker's thread. The proxy
 * wires one to the gateways. Keep it short: the next poll waits for it. An exception it throws is
 * logged and does not stop the polling.
 */
@FunctionalInterface
public interface BrokerListener {

    void published(BrokerState state);
}
