package dev.attribution.command.webhooks;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;

/**
 * SSRF guard for webhook targets (spec 6: "public http or https"): checked at creation and again at every
 * delivery after DNS resolution. Loopback is allowed only when {@code attribution.webhooks.allow-loopback} is set
 * (tests); private, link-local (cloud metadata 169.254.169.254), CGNAT, unique-local, multicast and unspecified
 * addresses are always refused.
 */
final class UrlGuard {

    private UrlGuard() {
    }

    /** The problem with {@code url} as a webhook target, or empty when it may be used. */
    static Optional<String> problem(String url, boolean allowLoopback) {
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
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (UnknownHostException e) {
            return Optional.of(WebhookMessages.TARGET_URL_UNRESOLVABLE);
        }
        for (InetAddress a : addresses) {
            if (!isPublic(a, allowLoopback)) {
                return Optional.of(WebhookMessages.TARGET_URL_NOT_PUBLIC);
            }
        }
        return Optional.empty();
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
