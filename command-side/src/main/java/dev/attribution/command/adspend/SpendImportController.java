package dev.attribution.command.adspend;

import dev.attribution.api.ApiException;
import dev.attribution.api.Envelopes;
import dev.attribution.api.RawFile;
import dev.attribution.api.RequestBodyType;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.imports.ImportFileException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.swagger.v3.oas.annotations.Operation;

import java.io.StringReader;

/**
 * {@code POST /api/v1.0/ad-spend/import}: the spend import of {@code scripts/admin spend import} for automation,
 * on the caller's account. Body: the file itself (CSV or JSON lines). Synchronous; all or nothing.
 */
@Controller("/api/v1.0/ad-spend/import")
class SpendImportController {

    private final SpendImport spendImport;

    SpendImportController(SpendImport spendImport) {
        this.spendImport = spendImport;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = RawFile.class, example = """
            platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend,impressions,clicks,currency
            FACEBOOK,act_1234567890,23851234567890001,23851234567890101,23851234567890201,2026-01-01,152.40,48210,612,USD
            """)
    @Operation(operationId = "importAdSpend",
            summary = "Import an ad-spend file (CSV with a header row, or JSON lines) as the request body.")
    @RequiresRole(Roles.IMPORT_AD_SPEND)
    Envelopes.Single<SpendImport.Result> importFile(@Nullable @Body String body, Caller caller) {
        if (body == null || body.isBlank()) {
            throw ApiException.badRequest("Request body is required: a spend file (CSV with a header row, or JSON lines)");
        }
        try {
            return new Envelopes.Single<>(spendImport.importFile(caller.accountId(), new StringReader(body), SpendImport.Progress.NONE),
                    RequestIds.current());
        } catch (ImportFileException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }
}
