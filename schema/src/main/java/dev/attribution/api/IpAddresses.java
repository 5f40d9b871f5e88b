package dev.attribution.api;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The IP address rule of every write field that holds one ({@code leadIps} of leads, orders, calls, carts and
 * subscriptions; a click's {@code ip}): an IPv4 dotted quad or an IPv6 literal, else 400
 * {@code Invalid <field> '<value>': not an IP address}. Never a host name, never a DNS lookup.
 */
public final class IpAddresses {

    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");

    private IpAddresses() {
    }

    /** The message for {@code value} in {@code field}. */
    public static String invalid(String field, String value) {
        return "Invalid " + field + " '" + value + "': not an IP address";
    }

    /** {@code value} when it is an IP address; 400 otherwise. */
    public static String checked(String field, String value) {
        if (!isIp(value)) {
            throw ApiException.badRequest(invalid(field, value));
        }
        return value;
    }

    /** {@code values} when each is an IP address; 400 naming the first that is not. */
    public static List<String> checked(String field, List<String> values) {
        values.forEach(v -> checked(field, v));
        return values;
    }

    static boolean isIp(String value) {
        if (IPV4.matcher(value).matches()) {
            return true;
        }
        if (!value.contains(":") || !IPV6_CHARS.matcher(value).matches()) {
            return false;
        }
        try {
            // bracketed, InetAddress reads an IPv6 literal and never resolves a name
            InetAddress.getByName("[" + value + "]");
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
