package dev.attribution.command.subscriptions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.command.leads.LeadResolver;
import dev.attribution.command.requests.CommandHandler;
import dev.attribution.command.subscriptions.SubscriptionCommands.CreateSubscription;
import dev.attribution.command.subscriptions.SubscriptionCommands.UpdateSubscriptions;
import dev.attribution.views.RecordViews;
import dev.attribution.views.SubscriptionView;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The subscription commands applied: CREATE_SUBSCRIPTION (upsert by {@code subscriptionId}) and UPDATE_SUBSCRIPTION;
 * results in GET shape. Records {@code subscription.created} for a new subscription and
 * {@code subscription.status.changed} when a status moves. {@code category} is never written here: the first paid
 * sale of the subscription sets it ({@link SubscriptionsTable#categoryFromOrder}).
 */
final class SubscriptionHandlers {

    private SubscriptionHandlers() {
    }

    @Singleton
    static class Create implements CommandHandler<CreateSubscription> {
        private final SubscriptionsTable subscriptions;
        private final LeadResolver leads;
        private final RecordViews views;

        Create(SubscriptionsTable subscriptions, LeadResolver leads, RecordViews views) {
            this.subscriptions = subscriptions;
            this.leads = leads;
            this.views = views;
        }

        @Override
        public Class<CreateSubscription> commandType() {
            return CreateSubscription.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, CreateSubscription s) throws SQLException {
            String accountId = w.accountId();
            Instant now = w.acceptedAt();
            String buyer = leads.resolve(c, accountId, PersonFields.person(s.person()), now).id();
            String leadId = s.parentEmail() != null ? leads.byEmail(c, accountId, s.parentEmail(), now).id() : buyer;
            SubscriptionsTable.Existing existing = s.subscriptionId() == null ? null
                    : subscriptions.lockByExternalId(c, accountId, s.subscriptionId());
            String tagSource = s.name() != null ? s.name() : s.planId();
            String tag = tagSource == null ? null
                    : "#" + tagSource.trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", "-").replaceAll("^-+|-+$", "");
            String id;
            if (existing == null) {
                id = subscriptions.insert(c, accountId, s, leadId, tag, now);
            } else {
                id = existing.id();
                subscriptions.update(c, accountId, List.of(id), new SubscriptionsTable.Changes(s.name(), s.price(),
                        s.status().name(), s.startDate(), s.endDate(), s.cancelAtDate(), s.trialStartDate(), s.trialEndDate()), now);
                subscriptions.relink(c, accountId, id, leadId, s.planId(), tag, s.periodicity().name());
            }
            SubscriptionView view = views.subscriptions(c, accountId, w.account().timeZone(), List.of(id)).get(0);
            JsonNode result = JsonBody.mapper().valueToTree(view);
            if (existing == null) {
                DomainEvents.record(c, accountId, "subscription.created", id, result, now);
            } else if (!s.status().name().equals(existing.status())) {
                DomainEvents.record(c, accountId, "subscription.status.changed", id, result, now);
            }
            return result;
        }
    }

    @Singleton
    static class Update implements CommandHandler<UpdateSubscriptions> {
        private final SubscriptionsTable subscriptions;
        private final RecordViews views;

        Update(SubscriptionsTable subscriptions, RecordViews views) {
            this.subscriptions = subscriptions;
            this.views = views;
        }

        @Override
        public Class<UpdateSubscriptions> commandType() {
            return UpdateSubscriptions.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, UpdateSubscriptions u) throws SQLException {
            String accountId = w.accountId();
            Map<String, String> statusById = subscriptions.lockStatuses(c, accountId, u.ids());
            if (statusById.isEmpty()) {
                throw new WriteFailure(SubscriptionRules.NOT_FOUND);
            }
            List<String> ids = new ArrayList<>(statusById.keySet());
            subscriptions.update(c, accountId, ids, new SubscriptionsTable.Changes(u.name(), u.price(),
                    u.status() == null ? null : u.status().name(), u.startDate(), u.endDate(), u.cancelAtDate(),
                    u.trialStartDate(), u.trialEndDate()), w.acceptedAt());
            List<SubscriptionView> rendered = views.subscriptions(c, accountId, w.account().timeZone(), ids);
            for (SubscriptionView v : rendered) {
                if (u.status() != null && !v.status().equals(statusById.get(v.id()))) {
                    DomainEvents.record(c, accountId, "subscription.status.changed", v.id(), JsonBody.mapper().valueToTree(v), w.acceptedAt());
                }
            }
            return JsonBody.mapper().valueToTree(rendered);
        }
    }
}
