package dev.attribution.command.clicks;

import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.IpAddresses;
import dev.attribution.api.StringOrList;
import dev.attribution.command.clicks.CreateClick.Platform;
import dev.attribution.command.leads.LeadRules;

import java.util.List;
import java.util.Optional;

/** The rules of {@code POST /clicks} (spec 4.11), each message written once; what passes is the command as stored. */
final class ClickRules {

    /** The platforms that report ad ids (Google and Facebook). */
    static final List<Platform> AD_ID_PLATFORMS = List.of(Platform.GOOGLE, Platform.GOOGLE_V2, Platform.FACEBOOK);

    private ClickRules() {
    }

    static CreateClick create(CreateClick body) {
        String referrerUrl = nonBlank(body.referrerUrl()).orElseThrow(() -> missing("referrerUrl"));
        String ip = nonBlank(body.ip()).map(v -> IpAddresses.checked("ip", v)).orElse(null);
        String sourceLinkTag = nonBlank(body.sourceLinkTag()).orElse(null);
        if (sourceLinkTag != null && !sourceLinkTag.startsWith("@")) {
            throw ApiException.badRequest("Invalid sourceLinkTag '" + sourceLinkTag + "': it must start with @");
        }
        Platform platform = body.integrationType();
        String adSourceId = nonBlank(body.adSourceId()).orElse(null);
        if (platform != null && adSourceId == null) {
            throw missing("adSourceId");
        }
        String adId = nonBlank(body.adspendAdId()).orElse(null);
        if (adId != null && (platform == null || !AD_ID_PLATFORMS.contains(platform))) {
            throw ApiException.badRequest("Invalid field: adspendAdId is only accepted with integrationType GOOGLE, GOOGLE_V2 or FACEBOOK");
        }
        String email = nonBlank(body.email()).orElse(null);
        if (email != null) {
            LeadRules.checkEmail(email);
        }
        String date = nonBlank(body.date()).map(v -> ApiDates.parseWrite(v).toString()).orElse(null);
        return new CreateClick(referrerUrl, nonBlank(body.sessionId()).orElse(null), nonBlank(body.previousUrl()).orElse(null),
                nonBlank(body.userAgent()).orElse(null), ip, nonBlank(body.adSourceClickId()).orElse(null), sourceLinkTag,
                Boolean.TRUE.equals(body.isOrganic()), platform, adSourceId, adId, email, new StringOrList(body.phoneList()),
                nonBlank(body.tag()).orElse(null), date);
    }

    /** The ordering key of a click: its email, else its first phone, else its IP, else the page. */
    static String lane(CreateClick click) {
        if (click.email() != null) {
            return click.email();
        }
        List<String> phones = click.phoneList();
        return !phones.isEmpty() ? phones.get(0) : click.ip() != null ? click.ip() : click.referrerUrl();
    }

    private static ApiException missing(String field) {
        return ApiException.badRequest("Missing required field: " + field);
    }

    private static Optional<String> nonBlank(String s) {
        return Optional.ofNullable(s).map(String::trim).filter(v -> !v.isEmpty());
    }
}
