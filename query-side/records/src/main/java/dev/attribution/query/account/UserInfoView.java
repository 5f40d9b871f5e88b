package dev.attribution.query.account;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/** GET /user-info: the account acted on and the roles of the calling key. */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record UserInfoView(String accountId, String name, String email, String timeZone, String currency,
                           List<String> roles) {
}
