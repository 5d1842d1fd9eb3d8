package io.memogate.proxy.metrics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the admin endpoint's requests: {@code GET /metrics} (Prometheus text, or OpenMetrics when the
 * Accept header asks for it, as Prometheus does), {@code GET /health} (JSON, 200 when UP, 503 when
 * DOWN); 404 for other paths, 405 for other methods on these two. Runs on the admin server's own event
 * loop: a scrape is a few milliseconds of CPU that never delays a proxied session.
 */
@ChannelHandler.Sharable
final class AdminRequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger log = LoggerFactory.getLogger(AdminRequestHandler.class);

    /** Prometheus text format 0.0.4, what every Prometheus version reads. */
    static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";
    static final String OPENMETRICS_FORMAT = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private final PrometheusMeterRegistry prometheus;
    private final HealthCheck health;
    private final ObjectMapper json = new ObjectMapper();

    AdminRequestHandler(PrometheusMeterRegistry prometheus, HealthCheck health) {
        this.prometheus = prometheus;
        this.health = health;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            respond(ctx, text(HttpResponseStatus.BAD_REQUEST, "malformed request\n"), false);
            return;
        }
        String path = new QueryStringDecoder(request.uri()).path();
        boolean known = path.equals("/metrics") || path.equals("/health");
        FullHttpResponse response;
        if (!known) {
            response = text(HttpResponseStatus.NOT_FOUND, "not found: " + path + " (try /metrics or /health)\n");
        } else if (!request.method().equals(HttpMethod.GET)) {
            response = text(HttpResponseStatus.METHOD_NOT_ALLOWED, request.method() + " is not allowed on " + path + "\n");
            response.headers().set(HttpHeaderNames.ALLOW, HttpMethod.GET.name());
        } else {
            response = path.equals("/metrics") ? metrics(ctx, request.headers().get(HttpHeaderNames.ACCEPT)) : health();
        }
        respond(ctx, response, HttpUtil.isKeepAlive(request));
    }

    private FullHttpResponse metrics(ChannelHandlerContext ctx, String accept) {
        // Only the two text formats: the protobuf one Prometheus may also offer to accept is not needed.
        String contentType = accept != null && accept.contains("application/openmetrics-text")
                ? OPENMETRICS_FORMAT : TEXT_FORMAT;
        ByteBuf body = ctx.alloc().buffer();
        try (ByteBufOutputStream out = new ByteBufOutputStream(body)) {
            prometheus.scrape(out, contentType);
        } catch (IOException | RuntimeException e) {
            body.release();
            log.warn("metrics scrape failed", e);
            return text(HttpResponseStatus.INTERNAL_SERVER_ERROR, "metrics scrape failed: " + e + "\n");
        }
        return response(HttpResponseStatus.OK, contentType, body);
    }

    private FullHttpResponse health() {
        Health current;
        try {
            current = health.check();
        } catch (RuntimeException e) {
            // A check that cannot answer is not a DOWN: say it failed, and why.
            log.warn("health check failed", e);
            return text(HttpResponseStatus.INTERNAL_SERVER_ERROR, "health check failed: " + e + "\n");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("status", current.status());
        fields.putAll(current.details());
        byte[] body;
        try {
            body = json.writeValueAsBytes(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings is always JSON", e);
        }
        return response(current.up() ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE,
                "application/json", Unpooled.wrappedBuffer(body));
    }

    private static FullHttpResponse text(HttpResponseStatus status, String message) {
        return response(status, "text/plain; charset=utf-8", Unpooled.copiedBuffer(message, StandardCharsets.UTF_8));
    }

    private static FullHttpResponse response(HttpResponseStatus status, String contentType, ByteBuf body) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        // Metrics and health are "now": a proxy or browser cache in between must not answer instead.
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        return response;
    }

    private static void respond(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
        HttpUtil.setKeepAlive(response, keepAlive);
        if (keepAlive) {
            ctx.writeAndFlush(response, ctx.voidPromise());
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("admin HTTP connection from {} failed", ctx.channel().remoteAddress(), cause);
        ctx.close();
    }
}
