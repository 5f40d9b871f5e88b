package dev.attribution.command.subscriptions;

import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.subscriptions.SubscriptionCommands.CreateSubscription;
import dev.attribution.command.subscriptions.SubscriptionCommands.UpdateSubscriptions;
import dev.attribution.command.subscriptions.SubscriptionCreateBody.Status;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * The rules of subscription writes (spec 4.13), each message written once; what passes is the command as stored:
 * statuses from the write set of spec 2.4 (UNKNOWN refused, by the enum), periodicity, dates in order, and a cancel
 * date with CANCELED on update (as the real client documents).
 */
final class SubscriptionRules {

    static final String CANCEL_DATE_REQUIRED = "cancelAtDate is required when status is CANCELED";
    static final String IDS_REQUIRED = "Missing required field: ids";
    static final String TOO_MANY_IDS = "The maximum number of ids to be provided for update is 50";
    static final String NOT_FOUND = "Subscription not found";
    private static final BigDecimal MAX_PRICE = new BigDecimal("99999999.99");

    private SubscriptionRules() {
    }

    /** The dates of a write, ISO instants, each null when not sent. */
    private record Dates(String start, String end, String cancelAt, String trialStart, String trialEnd) {
    }

    static CreateSubscription create(SubscriptionCreateBody body) {
        if (body.status() == null) {
            throw ApiException.badRequest("Missing required field: status");
        }
        if (PersonFields.nonBlank(body.startDate()) == null) {
            throw ApiException.badRequest("Missing required field: startDate");
        }
        if (body.price() == null) {
            throw ApiException.badRequest("Missing required field: price");
        }
        BigDecimal price = price(body.price());
        String periodicity = PersonFields.nonBlank(body.periodicity());
        if (periodicity == null) {
            throw ApiException.badRequest("Missing required field: periodicity");
        }
        SubscriptionCreateBody.Periodicity canonical = SubscriptionCreateBody.Periodicity.read(periodicity);
        PersonFields person = PersonFields.checked(body.person(), true, true, Integer.MAX_VALUE);
        String parentEmail = PersonFields.nonBlank(body.parentEmail());
        if (parentEmail != null) {
            CommerceInput.checkEmail("parentEmail", parentEmail);
        }
        Dates d = dates(body.startDate(), body.endDate(), body.cancelAtDate(), body.trialStartDate(), body.trialEndDate());
        return new CreateSubscription(body.status(), d.start(), price, canonical, person, parentEmail,
                PersonFields.nonBlank(body.planId()), PersonFields.nonBlank(body.name()), PersonFields.nonBlank(body.subscriptionId()),
                d.end(), d.cancelAt(), d.trialStart(), d.trialEnd());
    }

    static UpdateSubscriptions update(SubscriptionUpdateBody body) {
        List<String> ids = body.ids() == null || body.ids().values() == null ? List.of() : body.ids().values();
        if (ids.isEmpty()) {
            throw ApiException.badRequest(IDS_REQUIRED);
        }
        if (ids.size() > 50) {
            throw ApiException.badRequest(TOO_MANY_IDS);
        }
        BigDecimal price = body.price() == null ? null : price(body.price());
        Dates d = dates(body.startDate(), body.endDate(), body.cancelAtDate(), body.trialStartDate(), body.trialEndDate());
        if (body.status() == Status.CANCELED && d.cancelAt() == null) {
            throw ApiException.badRequest(CANCEL_DATE_REQUIRED);
        }
        return new UpdateSubscriptions(ids, body.status(), price, PersonFields.nonBlank(body.name()), d.start(), d.end(),
                d.cancelAt(), d.trialStart(), d.trialEnd());
    }

    /** The ordering key of a create: the lead writes' (email, else first phone). */
    static String lane(CreateSubscription s) {
        return PersonFields.laneKey(s.person(), "subscription");
    }

    /** The ordering key of an update: the first subscription it names. */
    static String lane(UpdateSubscriptions u) {
        return "subscription:" + u.ids().get(0);
    }

    /** Blacklisted emails, parent emails or phones are refused (400, no request_id; spec 3.2, 7.2.8). */
    static void checkBlacklist(dev.attribution.command.blacklist.Blacklist blacklist, String accountId, CreateSubscription s) {
        PersonFields p = s.person();
        blacklist.check(accountId, p.email(), p.phoneNumbers() == null ? List.of() : p.phoneNumbers().values());
        if (s.parentEmail() != null) {
            blacklist.checkEmail(accountId, s.parentEmail());
        }
    }

    private static BigDecimal price(BigDecimal p) {
        if (p.signum() < 0) {
            throw ApiException.badRequest("price must not be negative");
        }
        if (p.compareTo(MAX_PRICE) > 0) {
            throw ApiException.badRequest("price is above the maximum allowed amount");
        }
        return p;
    }

    private static Dates dates(String start, String end, String cancelAt, String trialStart, String trialEnd) {
        Dates d = new Dates(date(start), date(end), date(cancelAt), date(trialStart), date(trialEnd));
        order(d.start(), d.end(), "startDate", "endDate");
        order(d.trialStart(), d.trialEnd(), "trialStartDate", "trialEndDate");
        return d;
    }

    private static String date(String value) {
        String v = PersonFields.nonBlank(value);
        return v == null ? null : ApiDates.parseWrite(v).toString();
    }

    private static void order(String from, String to, String fromField, String toField) {
        if (from != null && to != null && Instant.parse(from).isAfter(Instant.parse(to))) {
            throw ApiException.badRequest(fromField + " cannot be later than " + toField);
        }
    }
}
