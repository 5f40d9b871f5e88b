package dev.attribution.command.webhooks;

import io.micronaut.context.annotation.DefaultImplementation;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * How a webhook target's host name becomes addresses: the one lookup whose answer is both checked ({@link UrlGuard})
 * and connected to ({@link WebhookSender}). A bean so that a test can answer as a rebinding DNS server would.
 */
@DefaultImplementation(WebhookDns.Jvm.class)
public interface WebhookDns {

    /** Every address of {@code host} (an IP literal answers itself); throws when the name does not resolve. */
    InetAddress[] resolve(String host) throws UnknownHostException;

    /** The JVM's resolver (the operating system's, behind the JVM's DNS cache). */
    @jakarta.inject.Singleton
    final class Jvm implements WebhookDns {
        @Override
        public InetAddress[] resolve(String host) throws UnknownHostException {
            return InetAddress.getAllByName(host);
        }
    }
}
