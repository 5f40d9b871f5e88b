package dev.attribution.command.webhooks;

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
 * addresses are always refused, also where an IPv6 address embeds them ({@link #embeddedIpv4}: mapped, compatible,
 * NAT64, 6to4; local-use NAT64 and Teredo are refused outright), and so are IPv4 spellings other than the canonical
 * dotted quad ({@link #ambiguousIpv4}). The one rule of creation, update and every delivery attempt.
 */
@Singleton
class UrlGuard {

    /** The target resolved, but not only to public addresses; nothing was connected. */
    static final class Refused extends UnknownHostException {
        Refused(String host) {
            super(host + ": " + WebhookRules.TARGET_URL_NOT_PUBLIC);
        }
    }

    private final WebhookDns dns;
    private final boolean allowLoopback;

    UrlGuard(WebhookDns dns, WebhookSettings settings) {
        this.dns = dns;
        this.allowLoopback = settings.isAllowLoopback();
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
            return Optional.of(WebhookRules.TARGET_URL_NOT_PUBLIC);
        } catch (UnknownHostException e) {
            return Optional.of(WebhookRules.TARGET_URL_UNRESOLVABLE);
        }
    }

    /** The problem with the form of {@code url} (scheme, host, no user info, no metadata host name), without DNS. */
    static Optional<String> formProblem(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (Exception e) {
            return Optional.of(WebhookRules.TARGET_URL_SCHEME);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost();
        if (!(scheme.equals("http") || scheme.equals("https")) || host == null || host.isEmpty()
                || uri.getRawUserInfo() != null) {
            return Optional.of(WebhookRules.TARGET_URL_SCHEME);
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.equals("metadata.google.internal") || h.endsWith(".internal") && h.startsWith("metadata") || ambiguousIpv4(h)) {
            return Optional.of(WebhookRules.TARGET_URL_NOT_PUBLIC);
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

    /**
     * The IPv4 address an IPv6 address carries where a translator, tunnel or stack reaches it: IPv4-mapped
     * {@code ::ffff:0:0/96}, IPv4-compatible {@code ::/96}, well-known NAT64 {@code 64:ff9b::/96} (last 32 bits) and
     * 6to4 {@code 2002::/16} (bits 16-47). Empty for any other address.
     */
    static Optional<byte[]> embeddedIpv4(byte[] b) {
        boolean zero80 = true;
        for (int i = 0; i < 10; i++) {
            zero80 &= b[i] == 0;
        }
        boolean mapped = zero80 && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
        boolean compatible = zero80 && b[10] == 0 && b[11] == 0;
        boolean nat64 = prefix(b, 0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0);
        if (mapped || compatible || nat64) {
            return Optional.of(new byte[]{b[12], b[13], b[14], b[15]});
        }
        if (prefix(b, 0x20, 0x02)) {
            return Optional.of(new byte[]{b[2], b[3], b[4], b[5]});
        }
        return Optional.empty();
    }

    private static boolean prefix(byte[] b, int... bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if ((b[i] & 0xff) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code host} looks like an IPv4 address without being one in the canonical dotted-quad form: leading
     * zeros ({@code 0177.0.0.1}: octal 127 to glibc and curl, decimal 177 to the JVM), hexadecimal parts
     * ({@code 0x7f.1}), fewer parts ({@code 127.1}) or one number ({@code 2130706433}). Parsers disagree on these, so
     * what is checked need not be what another client would connect to: they are refused.
     */
    static boolean ambiguousIpv4(String host) {
        if (!host.matches("(?i)(0x[0-9a-f]*|[0-9]+)(\\.(0x[0-9a-f]*|[0-9]+))*\\.?")) {
            return false;
        }
        return !host.matches("(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
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
            if (prefix(b, 0x00, 0x64, 0xff, 0x9b, 0x00, 0x01)) {    // local-use NAT64 64:ff9b:1::/48: never public
                return false;
            }
            if (prefix(b, 0x20, 0x01, 0x00, 0x00)) {                // Teredo 2001::/32: a tunnel to private hosts
                return false;
            }
            Optional<byte[]> v4 = embeddedIpv4(b);
            if (v4.isPresent()) {
                try {
                    return isPublic(InetAddress.getByAddress(v4.get()), allowLoopback);
                } catch (UnknownHostException e) {
                    return false;
                }
            }
        }
        return true;
    }
}
