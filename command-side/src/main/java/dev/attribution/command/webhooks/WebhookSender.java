package dev.attribution.command.webhooks;

import com.standardwebhooks.Webhook;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.http.io.support.ClassicRequestBuilder;
import org.apache.hc.core5.util.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.Optional;

/**
 * One signed POST of a webhook delivery (spec 6), to exactly the addresses the SSRF check accepted.
 *
 * <p>Apache HttpClient 5 asks its {@link DnsResolver} for the target's addresses when it opens a connection; ours is
 * {@link UrlGuard#publicAddresses}: it resolves once (through {@link WebhookDns}), refuses the attempt before any
 * connection when an address is not public, and hands the client the checked addresses, which it connects to
 * without resolving again. Connections are not reused, so every attempt resolves and checks afresh. TLS still
 * works on the host name of the URL (SNI and host-name verification by the client's default TLS strategy); no
 * proxy, no redirects, no automatic retries (the outbox retries, with backoff).
 */
@Singleton
class WebhookSender implements AutoCloseable {

    private final CloseableHttpClient http;

    WebhookSender(UrlGuard guard, WebhookSettings settings) {
        Timeout t = Timeout.of(settings.getTimeout());
        DnsResolver pinned = new DnsResolver() {
            @Override
            public InetAddress[] resolve(String host) throws UnknownHostException {
                return guard.publicAddresses(host);
            }

            @Override
            public String resolveCanonicalHostname(String host) {
                return host;
            }
        };
        this.http = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setDnsResolver(pinned)
                        .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(t).setSocketTimeout(t).build())
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(t).setConnectionRequestTimeout(t).build())
                .setConnectionReuseStrategy((request, response, context) -> false)
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .setUserAgent("attribution-webhooks/1")
                .build();
    }

    /** Posts {@code body} to {@code targetUrl} signed with {@code secret}; empty on a 2xx, else what went wrong. */
    Optional<String> send(String targetUrl, String secret, String eventId, String body) {
        Optional<String> form = UrlGuard.formProblem(targetUrl);
        if (form.isPresent()) {
            return Optional.of("target refused: " + form.get());
        }
        try {
            long timestamp = Instant.now().getEpochSecond();
            ClassicHttpRequest request = ClassicRequestBuilder.post(targetUrl)
                    .setHeader("webhook-id", eventId)
                    .setHeader("webhook-timestamp", Long.toString(timestamp))
                    .setHeader("webhook-signature", new Webhook(secret).sign(eventId, timestamp, body))
                    .setEntity(new StringEntity(body, ContentType.APPLICATION_JSON))
                    .build();
            int status = http.execute(request, response -> {
                EntityUtils.consume(response.getEntity());
                return response.getCode();
            });
            return status >= 200 && status < 300 ? Optional.empty() : Optional.of("HTTP " + status);
        } catch (UrlGuard.Refused e) {
            return Optional.of("target refused: " + WebhookRules.TARGET_URL_NOT_PUBLIC);
        } catch (UnknownHostException e) {
            return Optional.of("target refused: " + WebhookRules.TARGET_URL_UNRESOLVABLE);
        } catch (Exception e) {
            return Optional.of(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    @PreDestroy
    @Override
    public void close() throws IOException {
        http.close();
    }
}
