package dev.attribution.command.leads;

import dev.attribution.api.ApiException;
import dev.attribution.api.CommandJson;
import dev.attribution.api.Envelopes;
import dev.attribution.api.JsonBody;
import dev.attribution.api.NodeSide;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestBodyType;
import dev.attribution.api.ServedBy;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.requests.AcceptsIdempotencyKey;
import dev.attribution.command.requests.Commands;
import dev.attribution.command.requests.WriteAcceptance;
import io.micronaut.core.annotation.NonBlocking;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.swagger.v3.oas.annotations.Operation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Lead writes of spec 4.1; each is bound to its command record, checked by {@link LeadRules}, logged durably and
 * answered with a {@code request_id}. Create, update and tag run on the event loop and answer once the request log
 * committed ({@link WriteAcceptance}); the erasure blacklists in a transaction of its own and runs on the blocking pool.
 */
@ServedBy(NodeSide.COMMAND)
@Controller("/api/v1.0/leads")
class LeadsWriteController {

    private final Commands commands;
    private final Blacklist blacklist;
    private final LeadStages stages;
    private final LeadErasureAcceptance erasures;
    private final WriteAcceptance acceptance;

    LeadsWriteController(Commands commands, Blacklist blacklist, LeadStages stages, LeadErasureAcceptance erasures,
                         WriteAcceptance acceptance) {
        this.commands = commands;
        this.blacklist = blacklist;
        this.stages = stages;
        this.erasures = erasures;
        this.acceptance = acceptance;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = CreateLead.class, example = """
            {"email": "ada@example.com", "firstName": "Ada", "lastName": "Lovelace", "tags": ["!webinar", "@facebook"]}""")
    @Operation(summary = "Create or update a lead and its tags (asynchronous: returns request_id).")
    @RequiresRole(Roles.CREATE_LEADS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> create(@Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> {
            CreateLead lead = LeadRules.create(CommandJson.bind(body, CreateLead.class));
            blacklist.check(caller.accountId(), lead.email(), lead.phones());
            return commands.submit(caller.accountId(), LeadRules.lane(lead), lead);
        });
    }

    @Put(consumes = MediaType.ALL)
    @RequestBodyType(value = LeadUpdateBody.class, example = """
            {"firstName": "Augusta Ada", "tags": ["!newsletter-reader"]}""")
    @Operation(summary = "Update the lead selected by id, email or phone (asynchronous).")
    @RequiresRole(Roles.UPDATE_LEADS)
    @QueryParameters(UpdateQuery.class)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> update(QueryParams q, @Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> {
            UpdateLead update = LeadRules.update(q, JsonBody.parse(body, LeadUpdateBody.class));
            stages.firstUnknown(caller.accountId(), update.removeLeadStages()).ifPresent(name -> {
                throw ApiException.badRequest(LeadRules.unknownStage(name));
            });
            List<String> phones = new ArrayList<>(update.phoneNumbers());
            if (update.selectPhone() != null) {
                phones.add(update.selectPhone());
            }
            blacklist.check(caller.accountId(), update.email(), phones);
            if (update.selectEmail() != null) {
                blacklist.checkEmail(caller.accountId(), update.selectEmail());
            }
            return commands.submit(caller.accountId(), LeadRules.lane(update), update);
        });
    }

    @Delete(consumes = MediaType.ALL)
    @Operation(summary = "Erase the lead selected by id or email (asynchronous).")
    @RequiresRole(Roles.DELETE_LEADS)
    @QueryParameters(DeleteQuery.class)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted delete(QueryParams q, Caller caller) {
        return Envelopes.WriteAccepted.of(erasures.accept(caller.accountId(), LeadRules.delete(q)));
    }

    @Post(uri = "/tags", consumes = MediaType.ALL)
    @RequestBodyType(value = TagLeads.class, example = """
            {"emails": ["ada@example.com"], "tags": ["!webinar-attended"]}""")
    @Operation(operationId = "addLeadTags", summary = "Add tags to leads selected by ids or emails (asynchronous).")
    @RequiresRole(Roles.ADD_TAGS_TO_LEADS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> addTags(@Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> {
            TagLeads tag = LeadRules.tag(CommandJson.bind(body, TagLeads.class));
            return commands.submit(caller.accountId(), "bulk-tags", tag);
        });
    }

    interface UpdateQuery extends QueryParameter {
        Spec id = Spec.string("the lead's id (one of id, email, phone)");
        Spec email = Spec.contact("the lead's email");
        Spec phone = Spec.contact("one of the lead's phone numbers");
    }

    interface DeleteQuery extends QueryParameter {
        Spec id = Spec.string("the lead's id (id or email)");
        Spec email = Spec.contact("the lead's email");
    }
}
