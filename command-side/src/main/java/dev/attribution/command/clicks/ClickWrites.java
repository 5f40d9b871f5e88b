package dev.attribution.command.clicks;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.FixedSet;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Caller;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.leads.LeadWrites;
import dev.attribution.command.requests.WriteRequestLog;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Validation of {@code POST /clicks} (spec 4.11) and its hand-over to the request log as CREATE_CLICK. */
@Singleton
public class ClickWrites {

    /** Platforms a click may name (spec 4.11). */
    public static final List<String> INTEGRATION_TYPES = java.util.Arrays.stream(ClickBody.Platform.values()).map(Enum::name).toList();
    /** The first two platform kinds (Google and Facebook) report ad ids. */
    static final List<String> AD_ID_PLATFORMS = List.of("GOOGLE", "GOOGLE_V2", "FACEBOOK");

    private final WriteRequestLog log;
    private final Blacklist blacklist;

    public ClickWrites(WriteRequestLog log, Blacklist blacklist) {
        this.log = log;
        this.blacklist = blacklist;
    }

    public CompletableFuture<String> create(Caller caller, JsonBody body) {
        String referrerUrl = body.nonBlankString("referrerUrl")
                .orElseThrow(() -> ApiException.badRequest("Missing required field: referrerUrl"));
        ObjectNode payload = JsonBody.mapper().createObjectNode().put("referrerUrl", referrerUrl);
        for (String field : List.of("sessionId", "previousUrl", "userAgent", "adSourceClickId")) {
            body.nonBlankString(field).ifPresent(v -> payload.put(field, v));
        }
        body.nonBlankString("ip").ifPresent(v -> payload.put("ip", dev.attribution.api.IpAddresses.checked("ip", v)));
        Optional<String> sourceLinkTag = body.nonBlankString("sourceLinkTag");
        if (sourceLinkTag.isPresent() && !sourceLinkTag.get().startsWith("@")) {
            throw ApiException.badRequest("Invalid sourceLinkTag '" + sourceLinkTag.get() + "': it must start with @");
        }
        sourceLinkTag.ifPresent(v -> payload.put("sourceLinkTag", v));
        payload.put("isOrganic", body.bool("isOrganic").orElse(false));
        Optional<String> integrationType = body.nonBlankString("integrationType")
                .map(v -> FixedSet.require("integrationType", v, INTEGRATION_TYPES));
        Optional<String> adSourceId = body.nonBlankString("adSourceId");
        if (integrationType.isPresent() && adSourceId.isEmpty()) {
            throw ApiException.badRequest("Missing required field: adSourceId");
        }
        integrationType.ifPresent(v -> payload.put("integrationType", v));
        adSourceId.ifPresent(v -> payload.put("adSourceId", v));
        Optional<String> adId = body.nonBlankString("adspendAdId");
        if (adId.isPresent() && (integrationType.isEmpty() || !AD_ID_PLATFORMS.contains(integrationType.get()))) {
            throw ApiException.badRequest("Invalid field: adspendAdId is only accepted with integrationType GOOGLE, GOOGLE_V2 or FACEBOOK");
        }
        adId.ifPresent(v -> payload.put("adspendAdId", v));
        Optional<String> email = body.nonBlankString("email");
        email.ifPresent(LeadWritesAccess::checkEmail);
        email.ifPresent(v -> payload.put("email", v));
        List<String> phones = body.stringOrList("phones").orElse(List.of());
        ArrayNode phoneArray = payload.putArray("phones");
        phones.forEach(phoneArray::add);
        body.nonBlankString("tag").ifPresent(v -> payload.put("tag", v));
        body.nonBlankString("date").ifPresent(v -> payload.put("date", ApiDates.parseWrite(v).toString()));
        blacklist.check(caller.accountId(), email.orElse(null), phones);
        String laneKey = email.orElseGet(() -> phones.isEmpty() ? body.nonBlankString("ip").orElse(referrerUrl) : phones.get(0));
        return log.submit(caller.accountId(), "CREATE_CLICK", laneKey, payload);
    }

    /** The email rule of lead writes, shared. */
    static final class LeadWritesAccess {
        static void checkEmail(String email) {
            LeadWrites.validateEmail(email);
        }
    }
}
