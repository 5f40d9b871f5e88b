package dev.attribution.command.emailevents;

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
 * {@code POST /api/v1.0/email-events/import}: the email-event import of {@code scripts/admin email import} for
 * automation, on the caller's account. Body: the file itself (CSV or JSON lines). Synchronous; all or nothing.
 */
@Controller("/api/v1.0/email-events/import")
class EmailEventImportController {

    private final EmailEventImport emailEventImport;

    EmailEventImportController(EmailEventImport emailEventImport) {
        this.emailEventImport = emailEventImport;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = RawFile.class, example = """
            lead_email,type,message_id,name,date,provider
            ada@example.com,sent,newsletter-2026-01,January newsletter,2026-01-06T14:00:00Z,Mailchimp
            """)
    @Operation(operationId = "importEmailEvents",
            summary = "Import an email-event file (CSV with a header row, or JSON lines) as the request body.")
    @RequiresRole(Roles.IMPORT_EMAIL_EVENTS)
    Envelopes.Single<EmailEventImport.Result> importFile(@Nullable @Body String body, Caller caller) {
        if (body == null || body.isBlank()) {
            throw ApiException.badRequest("Request body is required: an email-event file (CSV with a header row, or JSON lines)");
        }
        try {
            return new Envelopes.Single<>(emailEventImport.importFile(caller.accountId(), new StringReader(body)), RequestIds.current());
        } catch (ImportFileException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }
}
