package dev.attribution.command.webhooks;

import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;

/**
 * SSRF guard for webhook targets (spec 6: "public http or https"): checked at creation and again at every
 * delivery attempt, on the very addresses the attempt then connects to ({@link #publicAddresses}, the DNS resolver
 * of {@link WebhookSender}). Loopback is allowed only when {@code attribution.webhooks.allow-loopback} is set
 * (tests); private, link-local (cloud metadata 169.254.169.254), CGNAT, unique-local, multicast and unspecified
 * addresses are always refused.
 */
@Singleton
class UrlGuard {

    /** The target resolved, but not only to public addresses; nothing was connected. */
    static final class Refused extends UnknownHostException {
        Refused(String host) {
            super(host + ": " + WebhookMessages.TARGET_URL_NOT_PUBLIC);
        }
    }

    private final WebhookDns dns;
    private final boolean allowLoopback;

    UrlGuard(WebhookDns dns, @Value("${attribution.webhooks.allow-loopback:false}") boolean allowLoopback) {
        this.dns = dns;
        this.allowLoopback = allowLoopback;
    }

    /** The problem with {@code url} as a webhook target (its form, then its addresses), or empty when it may be used. */
    Optional<String> problem(String url) {
        Optional<String> form = formProblem(url);
        if (form.isPresent()) {
            return form;
        }
        try {
            publicAddresses(URI.create(url).getHost());
            return Optional.empty();
        } catch (Refused e) {
            return Optional.of(WebhookMessages.TARGET_URL_NOT_PUBLIC);
        } catch (UnknownHostException e) {
            return Optional.of(WebhookMessages.TARGET_URL_UNRESOLVABLE);
        }
    }

    /** The problem with the form of {@code url} (scheme, host, no user info, no metadata host name), without DNS. */
    static Optional<String> formProblem(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (Exception e) {
            return Optional.of(WebhookMessages.TARGET_URL_SCHEME);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost();
        if (!(scheme.equals("http") || scheme.equals("https")) || host == null || host.isEmpty()
                || uri.getRawUserInfo() != null) {
            return Optional.of(WebhookMessages.TARGET_URL_SCHEME);
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.equals("metadata.google.internal") || h.endsWith(".internal") && h.startsWith("metadata")) {
            return Optional.of(WebhookMessages.TARGET_URL_NOT_PUBLIC);
        }
        return Optional.empty();
    }

    /**
     * Resolves {@code host} once and returns its addresses when every one of them is public: the caller connects to
     * these and never resolves again, so a DNS answer that changes between check and connect (rebinding) cannot
     * lead it to a refused address.
     *
     * @throws Refused when an address is not public
     * @throws UnknownHostException when the name does not resolve
     */
    InetAddress[] publicAddresses(String host) throws UnknownHostException {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        InetAddress[] addresses = dns.resolve(bare);
        if (addresses == null || addresses.length == 0) {
            throw new UnknownHostException(host);
        }
        for (InetAddress a : addresses) {
            if (!isPublic(a, allowLoopback)) {
                throw new Refused(host);
            }
        }
        return addresses.clone();
    }

    static boolean isPublic(InetAddress a, boolean allowLoopback) {
        if (a.isLoopbackAddress()) {
            return allowLoopback;
        }
        if (a.isAnyLocalAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress() || a.isMulticastAddress()) {
            return false;
        }
        byte[] b = a.getAddress();
        if (a instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            return !(first == 0                                   // "this" network
                    || first == 100 && second >= 64 && second < 128 // CGNAT 100.64/10
                    || first == 192 && second == 0 && (b[2] & 0xff) == 0 // IETF protocol assignments
                    || first == 198 && (second == 18 || second == 19)     // benchmarking
                    || first >= 240);                              // reserved, broadcast
        }
        if (a instanceof Inet6Address) {
            int first = b[0] & 0xff;
            if ((first & 0xfe) == 0xfc) {                          // unique local fc00::/7
                return false;
            }
            boolean v4Mapped = true;                               // ::ffff:a.b.c.d → check the IPv4 address
            for (int i = 0; i < 10; i++) {
                v4Mapped &= b[i] == 0;
            }
            if (v4Mapped && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
                try {
                    return isPublic(InetAddress.getByAddress(new byte[]{b[12], b[13], b[14], b[15]}), allowLoopback);
                } catch (UnknownHostException e) {
                    return false;
                }
            }
        }
        return true;
    }
}
