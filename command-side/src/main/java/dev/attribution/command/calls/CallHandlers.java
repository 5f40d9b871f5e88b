package dev.attribution.command.calls;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.command.leads.LeadResolver;
import dev.attribution.command.requests.CommandHandler;
import dev.attribution.views.CallView;
import dev.attribution.views.RecordViews;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/** The call commands applied: CREATE_CALL (externalId upsert), UPDATE_CALL and DELETE_CALL; results in GET shape. */
final class CallHandlers {

    private CallHandlers() {
    }

    @Singleton
    static class Create implements CommandHandler<CreateCall> {
        private final CallsTable calls;
        private final LeadResolver leads;
        private final RecordViews views;

        Create(CallsTable calls, LeadResolver leads, RecordViews views) {
            this.calls = calls;
            this.leads = leads;
            this.views = views;
        }

        @Override
        public Class<CreateCall> commandType() {
            return CreateCall.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, CreateCall call) throws SQLException {
            Instant now = w.acceptedAt();
            String leadId = leads.resolve(c, w.accountId(), PersonFields.person(call.person()), now).id();
            Instant date = call.date() != null ? Instant.parse(call.date()) : now;
            CallsTable.Existing existing = call.externalId() == null ? null : calls.lockByExternalId(c, w.accountId(), call.externalId());
            String id;
            if (existing != null) {
                id = existing.id();
                calls.rewrite(c, w.accountId(), id, call, leadId, date, now);
            } else {
                id = calls.insert(c, w.accountId(), call, leadId, date, now);
            }
            String previousLead = existing == null ? null : existing.leadId();
            calls.firstCalls(c, w.accountId(), previousLead == null || previousLead.equals(leadId) ? List.of(leadId) : List.of(leadId, previousLead));
            CallView view = views.calls(c, w.accountId(), w.account().timeZone(), List.of(id)).get(0);
            JsonNode result = JsonBody.mapper().valueToTree(view);
            if (existing == null) {
                DomainEvents.record(c, w.accountId(), "call.attributed", id, result, now);
            }
            return result;
        }
    }

    @Singleton
    static class Update implements CommandHandler<UpdateCalls> {
        private final CallsTable calls;
        private final RecordViews views;

        Update(CallsTable calls, RecordViews views) {
            this.calls = calls;
            this.views = views;
        }

        @Override
        public Class<UpdateCalls> commandType() {
            return UpdateCalls.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, UpdateCalls update) throws SQLException {
            List<String> ids = calls.update(c, w.accountId(), update, w.acceptedAt());
            if (ids.isEmpty()) {
                throw new WriteFailure(CallRules.NOT_FOUND);
            }
            return JsonBody.mapper().valueToTree(views.calls(c, w.accountId(), w.account().timeZone(), ids));
        }
    }

    @Singleton
    static class Delete implements CommandHandler<DeleteCall> {
        private final CallsTable calls;

        Delete(CallsTable calls) {
            this.calls = calls;
        }

        @Override
        public Class<DeleteCall> commandType() {
            return DeleteCall.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, DeleteCall delete) throws SQLException {
            String leadId = calls.delete(c, w.accountId(), delete.id(), w.acceptedAt());
            if (leadId == null) {
                throw new WriteFailure(CallRules.NOT_FOUND);
            }
            calls.firstCalls(c, w.accountId(), List.of(leadId));
            return null;
        }
    }
}
