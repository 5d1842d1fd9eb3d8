package io.memogate.broker.gateway;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Remembers what the gateways reported, as metrics would see it. */
final class RecordingListener implements GatewayListener {

    record Admission(Tier highest, long waitedNanos, long estimateBytes) {
    }

    record Rejection(Tier tier, GatewayRejectedException.Reason reason, long waitedNanos, long estimateBytes) {
    }

    final List<Admission> admissions = new CopyOnWriteArrayList<>();
    final List<Rejection> rejections = new CopyOnWriteArrayList<>();

    @Override
    public void admitted(Tier highestOrNull, long waitedNanos, long estimateBytes) {
        admissions.add(new Admission(highestOrNull, waitedNanos, estimateBytes));
    }

    @Override
    public void rejected(Tier tier, GatewayRejectedException.Reason reason, long waitedNanos, long estimateBytes) {
        rejections.add(new Rejection(tier, reason, waitedNanos, estimateBytes));
    }
}
