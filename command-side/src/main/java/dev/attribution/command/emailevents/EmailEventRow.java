package dev.attribution.command.emailevents;

import java.time.Instant;

/**
 * One line of an email-event file (docs/email-events.md): a message sent to a lead or opened by it. The lead is named
 * by {@code leadId} when given, else by {@code email}; {@code kind} is {@code sent} or {@code open}.
 */
public record EmailEventRow(long line, String leadId, String email, String messageId, String kind, Instant occurredAt,
                            String name, String provider) {
}
