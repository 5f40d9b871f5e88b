package dev.attribution.api;

import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.netty.channel.ChannelPipelineCustomizer;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import jakarta.inject.Singleton;

import java.nio.charset.StandardCharsets;

/**
 * Reads a request target the way URL parsers of browsers and of Node's {@code fetch} write it: characters
 * {@link java.net.URI} refuses ({@code | { } ^ ` \ [ ] "}, space, non-ASCII) and a {@code %} that starts no
 * {@code %XX} escape are taken literally, i.e. percent-encoded before the server parses the target. Clients that build
 * query strings by hand (n8n-nodes-hyros sends {@code PUT /leads?email=<as typed>}, docs/clients.md) send such
 * targets; without this the server could not even build the request and answered 500. A target that is already a
 * valid URI is left exactly as it is.
 */
@Singleton
public class RequestTargets implements BeanCreatedEventListener<ChannelPipelineCustomizer> {

    private static final String HANDLER = "attribution-request-target";
    private static final Handler INSTANCE = new Handler();

    @Override
    public ChannelPipelineCustomizer onCreated(BeanCreatedEvent<ChannelPipelineCustomizer> event) {
        return afterCodec(event.getBean(), HANDLER, () -> INSTANCE);
    }

    /**
     * Puts a handler right after the HTTP/1 codec of every server connection, so it sees each decoded request first
     * (and each answer last); {@code handler} is asked once per connection.
     */
    static ChannelPipelineCustomizer afterCodec(ChannelPipelineCustomizer customizer, String name,
                                                java.util.function.Supplier<ChannelHandler> handler) {
        if (customizer.isServerChannel()) {
            customizer.doOnConnect(pipeline -> {
                if (pipeline.get(ChannelPipelineCustomizer.HANDLER_HTTP_SERVER_CODEC) != null && pipeline.get(name) == null) {
                    pipeline.addAfter(ChannelPipelineCustomizer.HANDLER_HTTP_SERVER_CODEC, name, handler.get());
                }
                return pipeline;
            });
        }
        return customizer;
    }

    /** {@code target} with every character a URI may not hold, and every stray {@code %}, percent-encoded. */
    public static String lenient(String target) {
        if (valid(target)) {
            return target;
        }
        StringBuilder out = new StringBuilder(target.length() + 16);
        byte[] bytes = target.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            int c = bytes[i] & 0xff;
            if (c == '%' && i + 2 < bytes.length && hex(bytes[i + 1]) && hex(bytes[i + 2])) {
                out.append('%');
            } else if (c == '%' || !allowed(c)) {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            } else {
                out.append((char) c);
            }
        }
        return out.toString();
    }

    private static boolean valid(String target) {
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c == '%') {
                if (i + 2 >= target.length() || !hex(target.charAt(i + 1)) || !hex(target.charAt(i + 2))) {
                    return false;
                }
            } else if (c > 0x7f || !allowed(c)) {
                return false;
            }
        }
        return true;
    }

    /** What {@link java.net.URI} accepts unescaped in a path and query: unreserved, reserved (less [ ]), and {@code #}. */
    private static boolean allowed(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-_.!~*'();/?:@&=+$,#".indexOf(c) >= 0;
    }

    private static boolean hex(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    @ChannelHandler.Sharable
    static final class Handler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest request) {
                String target = request.uri();
                String fixed = lenient(target);
                if (!fixed.equals(target)) {
                    request.setUri(fixed);
                }
            }
            ctx.fireChannelRead(msg);
        }
    }
}
