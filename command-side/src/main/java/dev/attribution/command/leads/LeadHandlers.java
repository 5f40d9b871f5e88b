package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Account;
import dev.attribution.command.requests.CommandHandler;
import dev.attribution.command.requests.GroupWriteHandler;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The lead commands applied: CREATE_LEAD (also in groups), UPDATE_LEAD, DELETE_LEAD and ADD_TAGS_TO_LEADS. */
final class LeadHandlers {

    private LeadHandlers() {
    }

    /**
     * CREATE_LEAD: creates the lead or updates the one with that email (spec 4.1, 3.2). Group apply (issue 23 point 3):
     * creates that name an email and carry no IPs, tags, stage or GRANTED consent (no events, no listeners) are
     * applied many at once: one upsert, the phones in two statements, one render per account.
     */
    @Singleton
    static class Create implements CommandHandler<CreateLead>, GroupWriteHandler {
        private final LeadsTable leads;
        private final LeadPhones phones;
        private final LeadTags tags;
        private final LeadStages stages;
        private final LeadResolver resolver;
        private final LeadEvents events;

        Create(LeadsTable leads, LeadPhones phones, LeadTags tags, LeadStages stages, LeadResolver resolver, LeadEvents events) {
            this.leads = leads;
            this.phones = phones;
            this.tags = tags;
            this.stages = stages;
            this.resolver = resolver;
            this.events = events;
        }

        @Override
        public Class<CreateLead> commandType() {
            return CreateLead.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, CreateLead lead) throws SQLException {
            Account account = w.account();
            List<String> numbers = lead.phones();
            String email = lead.email() != null ? lead.email()
                    : leads.emailByPhone(c, account.id(), numbers.get(0)).orElse(resolver.placeholder(numbers.get(0)));
            Instant now = w.acceptedAt();
            LeadsTable.Upsert upsert = leads.upsertWithEvents(c, account, email, lead.firstName(), lead.lastName(), lead.consent(), now);
            if (upsert.created()) {
                phones.add(c, account.id(), upsert.id(), numbers); // a new lead holds no numbers to replace
            } else {
                phones.replace(c, account.id(), upsert.id(), numbers);
            }
            resolver.addIpsAndConnectClicks(c, account, upsert.id(), lead.ips(), now);
            Instant tagsDate = lead.tagsDate() != null ? Instant.parse(lead.tagsDate()) : now;
            LeadTags.TagsAdded added = tags.addTags(c, account, upsert.id(), lead.tagList(), tagsDate);
            if (lead.stage() != null) {
                stages.applyStage(c, account, upsert.id(), lead.stage(), now);
                return events.render(c, account, upsert.id());
            }
            // the last tag event rendered the lead after every change of this write: the result is that render
            return added.lead().orElseGet(() -> events.render(c, account, upsert.id()));
        }

        @Override
        public List<String> advisoryLocks(Connection c, List<Write> writes) {
            return LeadResolver.lockNames(writes, w -> java.util.Collections.singletonList(w.command(CreateLead.class).email()));
        }

        @Override
        public boolean groupable(Write write) {
            CreateLead lead = write.command(CreateLead.class);
            return lead.email() != null && ascii(lead.email()) && lead.ips().isEmpty() && lead.tagList().isEmpty()
                    && lead.stage() == null && lead.adOptimizationConsent() != CreateLead.Consent.GRANTED;
        }

        /**
         * {@link #handle} of each write: the same upsert, phones replaced, and the result rendered after the group (no
         * other write of the group concerns the same lead). Only {@link #groupable} writes.
         */
        @Override
        public List<JsonNode> applyGroup(Connection c, List<Write> writes) throws SQLException {
            List<LeadsTable.Row> rows = new ArrayList<>(writes.size());
            List<List<String>> numbers = new ArrayList<>(writes.size());
            for (Write w : writes) {
                CreateLead lead = w.command(CreateLead.class);
                rows.add(new LeadsTable.Row(w.account().id(), lead.email(), lead.firstName(), lead.lastName(), lead.consent(),
                        w.acceptedAt()));
                numbers.add(lead.phones());
            }
            if (rows.stream().map(LeadsTable.Row::identity).distinct().count() < rows.size()) {
                throw new IllegalStateException("a group of lead creates names one lead twice");
            }
            List<LeadsTable.Upsert> upserts = leads.upsertMany(c, rows);
            phones.replaceMany(c, rows.stream().map(LeadsTable.Row::accountId).toList(), upserts, numbers);
            Map<String, JsonNode> rendered = new HashMap<>();
            Map<String, List<Integer>> byAccount = new LinkedHashMap<>();
            for (int i = 0; i < writes.size(); i++) {
                byAccount.computeIfAbsent(writes.get(i).account().id(), a -> new ArrayList<>()).add(i);
            }
            for (List<Integer> members : byAccount.values()) {
                Account account = writes.get(members.get(0)).account();
                rendered.putAll(events.renderAll(c, account, members.stream().map(i -> upserts.get(i).id()).toList()));
            }
            return upserts.stream().map(u -> rendered.get(u.id())).toList();
        }

        private static boolean ascii(String s) {
            return s.chars().allMatch(ch -> ch < 128);
        }
    }

    /**
     * UPDATE_LEAD ({@code PUT /leads}, spec 4.1, 3.2): tags added without re-dating those held, tags and stages
     * removed, phones and IPs added, consent changed only when sent, {@code leadStage} applied with its date.
     */
    @Singleton
    static class Update implements CommandHandler<UpdateLead> {
        private final LeadsTable leads;
        private final LeadPhones phones;
        private final LeadTags tags;
        private final LeadStages stages;
        private final LeadResolver resolver;
        private final LeadEvents events;

        Update(LeadsTable leads, LeadPhones phones, LeadTags tags, LeadStages stages, LeadResolver resolver, LeadEvents events) {
            this.leads = leads;
            this.phones = phones;
            this.tags = tags;
            this.stages = stages;
            this.resolver = resolver;
            this.events = events;
        }

        @Override
        public Class<UpdateLead> commandType() {
            return UpdateLead.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, UpdateLead u) throws SQLException {
            Account account = w.account();
            Instant now = w.acceptedAt();
            LeadsTable.Current lead = select(c, account.id(), u).orElseThrow(() -> new WriteFailure(LeadRules.LEAD_NOT_FOUND));
            if (u.email() != null && !u.email().equalsIgnoreCase(lead.email())
                    && leads.findByEmail(c, account.id(), u.email()).isPresent()) {
                throw new WriteFailure("Another lead already has the email " + u.email());
            }
            leads.updateFields(c, account.id(), lead.id(), u.email(), u.firstName(), u.lastName(), u.consent(), now);
            leads.consentChanged(c, account, lead.id(), lead.consent(), u.consent(), now);
            phones.add(c, account.id(), lead.id(), UpdateLead.orNone(u.phoneNumbers()));
            resolver.addIpsAndConnectClicks(c, account, lead.id(), UpdateLead.orNone(u.leadIps()), now);
            Instant tagsDate = u.tagsDate() != null ? Instant.parse(u.tagsDate()) : now;
            tags.addTagsReturningNew(c, account, lead.id(), UpdateLead.orNone(u.tags()), tagsDate);
            tags.removeTags(c, account, lead.id(), UpdateLead.orNone(u.removeTags()), now);
            stages.removeStages(c, account, lead.id(), UpdateLead.orNone(u.removeLeadStages()), now);
            if (u.leadStage() != null) {
                Instant date = u.leadStage().date() != null ? Instant.parse(u.leadStage().date()) : now;
                stages.applyStage(c, account, lead.id(), u.leadStage().name(), date);
            }
            leads.touch(c, account.id(), lead.id(), now);
            return events.render(c, account, lead.id());
        }

        /** The lead named by the query: id first, then email, then phone. */
        private Optional<LeadsTable.Current> select(Connection c, String accountId, UpdateLead u) throws SQLException {
            if (u.selectId() != null) {
                return leads.findById(c, accountId, u.selectId());
            }
            if (u.selectEmail() != null) {
                return leads.findByEmail(c, accountId, u.selectEmail());
            }
            return leads.findByPhoneDigits(c, accountId, u.selectPhone());
        }
    }

    /** DELETE_LEAD ({@code DELETE /leads}, spec 3.2): the erasure. No {@code result} (spec 2.20). */
    @Singleton
    static class Delete implements CommandHandler<DeleteLead> {
        private final LeadsTable leads;
        private final LeadEraser eraser;
        private final String placeholderDomain;

        Delete(LeadsTable leads, LeadEraser eraser, LeadSettings settings) {
            this.leads = leads;
            this.eraser = eraser;
            this.placeholderDomain = settings.getPlaceholderEmailDomain();
        }

        @Override
        public Class<DeleteLead> commandType() {
            return DeleteLead.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, DeleteLead d) throws SQLException {
            String accountId = w.accountId();
            Optional<LeadsTable.Current> lead = Optional.empty();
            if (d.leadId() != null) {
                lead = leads.findById(c, accountId, d.leadId());
            }
            if (lead.isEmpty() && d.selectId() != null) {
                lead = leads.findById(c, accountId, d.selectId());
            }
            if (lead.isEmpty() && d.selectEmail() != null) {
                lead = leads.findByEmail(c, accountId, d.selectEmail());
            }
            String leadId = lead.orElseThrow(() -> new WriteFailure(LeadRules.LEAD_NOT_FOUND)).id();
            eraser.erase(c, w.account(), leadId, placeholderDomain, w.acceptedAt(), w.requestId());
            return null;
        }
    }

    /**
     * ADD_TAGS_TO_LEADS ({@code POST /leads/tags}, spec 4.1, 3.2): the union of {@code ids} and {@code emails} in the
     * account gets every tag; action tags already held are re-dated to {@code tagsDate}, sale and source tags already
     * held are left alone. No lead matched: FAILED {@code Lead not found.} The result is the array of tagged leads.
     */
    @Singleton
    static class Tag implements CommandHandler<TagLeads> {
        private final LeadsTable leads;
        private final LeadTags tags;
        private final LeadEvents events;

        Tag(LeadsTable leads, LeadTags tags, LeadEvents events) {
            this.leads = leads;
            this.tags = tags;
            this.events = events;
        }

        @Override
        public Class<TagLeads> commandType() {
            return TagLeads.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, TagLeads t) throws SQLException {
            Account account = w.account();
            List<String> leadIds = leads.findLiveIds(c, account.id(), t.idList(), t.emailList());
            if (leadIds.isEmpty()) {
                throw new WriteFailure(LeadRules.LEAD_NOT_FOUND);
            }
            List<String> named = t.tagList();
            List<String> actionTags = named.stream().filter(Tag::isActionTag).toList();
            Instant date = t.tagsDate() != null ? Instant.parse(t.tagsDate()) : w.acceptedAt();
            ArrayNode result = JsonBody.mapper().createArrayNode();
            for (String leadId : leadIds) {
                List<String> added = tags.addTagsReturningNew(c, account, leadId, named, date);
                tags.redateTags(c, account.id(), leadId, actionTags.stream().filter(tag -> !added.contains(tag)).toList(), date);
                leads.touch(c, account.id(), leadId, w.acceptedAt());
                JsonNode lead = events.render(c, account, leadId);
                if (lead != null) {
                    result.add(lead);
                }
            }
            return result;
        }

        /** An action tag: {@code !} prefix or no prefix at all (spec 2.4, 4.1). */
        static boolean isActionTag(String tag) {
            return tag.startsWith("!") || !(tag.startsWith("@") || tag.startsWith("$") || tag.startsWith("#"));
        }
    }
}
