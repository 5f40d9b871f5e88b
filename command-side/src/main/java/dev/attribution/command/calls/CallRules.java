package dev.attribution.command.calls;

import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.FixedSet;
import dev.attribution.api.QueryParams;
import dev.attribution.command.commerce.PersonFields;

import java.util.Arrays;
import java.util.List;

/** The rules of call writes (spec 4.3), each message written once; what passes is the command as stored. */
final class CallRules {

    /** CallState of spec 2.4; a refused value gives {@code Invalid state '<value>'. Accepted values: ...}. */
    static final List<String> STATES = Arrays.stream(CreateCall.State.values()).map(Enum::name).toList();
    static final String IDS_OR_EXTERNAL_IDS = "Either ids or externalIds must be provided";
    static final String NOT_BOTH = "Provide either ids or externalIds, not both";
    static final String NOT_FOUND = "Call not found";

    private CallRules() {
    }

    /** {@code POST /calls}: name and email required; the deprecated {@code id} is the externalId when that is absent. */
    static CreateCall create(CreateCall body) {
        String name = PersonFields.nonBlank(body.name());
        if (name == null) {
            throw ApiException.badRequest("Missing required field: name");
        }
        if (body.person() == null || PersonFields.nonBlank(body.person().email()) == null) {
            throw ApiException.badRequest("Missing required field: email");
        }
        PersonFields person = PersonFields.checked(body.person(), true, true, Integer.MAX_VALUE);
        String externalId = PersonFields.nonBlank(body.externalId());
        String date = PersonFields.nonBlank(body.date());
        return new CreateCall(name, person, externalId != null ? externalId : PersonFields.nonBlank(body.id()), null,
                date == null ? null : ApiDates.parseWrite(date).toString(), body.qualified(),
                PersonFields.nonBlank(body.qualification()), body.state());
    }

    /** {@code PUT /calls}: {@code ids} or {@code externalIds}, not both; {@code name} required. */
    static UpdateCalls update(QueryParams q) {
        List<String> ids = q.list("ids");
        List<String> externalIds = q.list("externalIds");
        if (ids.isEmpty() && externalIds.isEmpty()) {
            throw ApiException.badRequest(IDS_OR_EXTERNAL_IDS);
        }
        if (!ids.isEmpty() && !externalIds.isEmpty()) {
            throw ApiException.badRequest(NOT_BOTH);
        }
        String name = q.required("name");
        String qualification = q.string("qualification").orElse(null);
        CreateCall.State state = q.string("state").map(v -> FixedSet.require("state", v, CreateCall.State.class)).orElse(null);
        return new UpdateCalls(ids, externalIds, name, qualification, state, q.bool("qualified").orElse(null));
    }

    /** The ordering key of a call update: the first call it names. */
    static String lane(UpdateCalls u) {
        return "call:" + u.keys().get(0);
    }
}
