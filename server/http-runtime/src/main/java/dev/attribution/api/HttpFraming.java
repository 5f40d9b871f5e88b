package dev.attribution.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.netty.channel.ChannelPipelineCustomizer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import jakarta.inject.Singleton;

import java.util.List;

/**
 * What the server does with input that is not HTTP/1.x it can answer (issue 29 point 3), before any route sees it:
 * <ul>
 * <li>a request line of another version ({@code HTTP/9.9}; Netty reads any {@code HTTP/x.y} and the server used to
 * answer in that version) gets 400 {@code Unsupported HTTP version: <version>} in the error envelope, as HTTP/1.1,
 * and the connection is closed;</li>
 * <li>a body whose framing is broken (a chunk size that is not hexadecimal, a chunk longer than announced): whatever
 * answer the request already has is sent and the connection is closed at once. The decoder discards everything after
 * broken framing, so the connection could carry nothing more; left open it held the client until the idle timeout.</li>
 * </ul>
 * A request line or headers the decoder cannot read at all are left to Micronaut, which answers 400 (413 for a request
 * line over the limit). No filter sees those answers nor the version's 400: they are reported to
 * {@link UnfilteredAnswers}, so that metrics and the access log count them too.
 */
@Singleton
public class HttpFraming implements BeanCreatedEventListener<ChannelPipelineCustomizer> {

    private static final String HANDLER = "attribution-http-framing";

    private final BeanProvider<UnfilteredAnswers> answers;

    public HttpFraming(BeanProvider<UnfilteredAnswers> answers) {
        this.answers = answers;
    }

    @Override
    public ChannelPipelineCustomizer onCreated(BeanCreatedEvent<ChannelPipelineCustomizer> event) {
        return RequestTargets.afterCodec(event.getBean(), HANDLER, () -> new Handler(answers.isPresent() ? answers.get() : null));
    }

    /**
     * One per connection: after a refusal it drops the rest of the connection's input. It sees the answers go out too,
     * so that broken framing closes the connection right after the request's answer, whether that was sent before the
     * body was read (a 401) or is still to come.
     */
    static final class Handler extends ChannelDuplexHandler {
        private final UnfilteredAnswers answers;
        private boolean refused;
        private boolean answered;
        private boolean closeAfterAnswer;
        /** A request no filter will see (its head could not be decoded), until its answer goes out. */
        private String unfilteredMethod;
        private long unfilteredSince;

        Handler(UnfilteredAnswers answers) {
            this.answers = answers;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (refused) {
                ReferenceCountUtil.release(msg);
                return;
            }
            if (msg instanceof HttpRequest request) {
                answered = false;
                long since = System.nanoTime();
                if (request.decoderResult().isSuccess() && !request.protocolVersion().equals(HttpVersion.HTTP_1_1)
                        && !request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
                    refused = true;
                    String version = request.protocolVersion().text();
                    String method = request.method().name();
                    ReferenceCountUtil.release(msg);
                    ctx.writeAndFlush(badRequest("Unsupported HTTP version: " + version)).addListener(ChannelFutureListener.CLOSE);
                    if (answers != null) {
                        answers.answered(method, HttpResponseStatus.BAD_REQUEST.code(), System.nanoTime() - since);
                    }
                    return;
                }
                if (request.decoderResult().isFailure()) {
                    unfilteredMethod = request.method().name();
                    unfilteredSince = since;
                }
            }
            if (msg instanceof HttpContent content && content.decoderResult().isFailure()) {
                if (answered) {
                    refused = true;
                    ReferenceCountUtil.release(msg);
                    ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
                    return;
                }
                closeAfterAnswer = true;
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof HttpResponse response && unfilteredMethod != null) {
                if (answers != null) {
                    answers.answered(unfilteredMethod, response.status().code(), System.nanoTime() - unfilteredSince);
                }
                unfilteredMethod = null;
            }
            boolean last = msg instanceof LastHttpContent || msg instanceof FullHttpResponse;
            if (last) {
                answered = true;
            }
            if (last && closeAfterAnswer) {
                refused = true;
                ctx.write(msg, promise); // often a void promise: no listener on it
                ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            ctx.write(msg, promise);
        }
    }

    private static FullHttpResponse badRequest(String message) {
        ByteBuf body;
        try {
            body = Unpooled.wrappedBuffer(JsonBody.mapper().writeValueAsBytes(Envelopes.Error.of(List.of(message))));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_REQUEST, body);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .set(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes())
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        return response;
    }
}
