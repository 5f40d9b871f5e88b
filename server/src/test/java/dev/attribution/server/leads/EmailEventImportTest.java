package dev.attribution.server.leads;

import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.emailevents.EmailEventImport;
import dev.attribution.command.imports.ImportFileException;
import dev.attribution.server.admin.AdminCli;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The email-event import (docs/email-events.md): file formats, idempotence, bad lines, unknown leads, role, CLI. */
@MicronautTest(transactional = false)
class EmailEventImportTest extends LeadsApiTest {

    static final String CSV = """
            lead_email,type,message_id,name,date,provider
            ann@mail.test,sent,m-1,Spring sale,2024-03-01T09:00:00Z,Mailchimp
            ANN@mail.test,open,m-1,Spring sale,2024-03-01T10:30:00,Mailchimp
            bob@mail.test,sent,m-2,"Welcome, Bob",2024-03-02,Klaviyo
            """;

    @Inject
    EmailEventImport emailImport;

    /** A new account with the leads ann@mail.test and bob@mail.test; returns its key. */
    private String accountWithLeads() {
        String key = newAccount();
        for (String email : List.of("ann@mail.test", "bob@mail.test")) {
            assertEquals("PROCESSED", write(key, "POST", "/api/v1.0/leads", "{\"email\":\"" + email + "\"}").get("status").asText());
        }
        return key;
    }

    private String accountOf(String key) {
        return directory.findActiveKey(ApiKeys.hash(key)).orElseThrow().account().id();
    }

    private static String events(String account) {
        return Db.one("SELECT count(*) || '|' || coalesce(string_agg(message_id || '/' || kind || '/' || name || '/' || provider || '/' "
                + "|| to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI'), ';' ORDER BY message_id, kind), '') "
                + "FROM lead_email_events WHERE account_id = '" + account + "'");
    }

    private EmailEventImport.Result run(String account, String file) {
        return emailImport.importFile(account, new StringReader(file));
    }

    @Test
    void csvImportWritesEachEventForItsLead() {
        String account = accountOf(accountWithLeads());
        EmailEventImport.Result r = run(account, CSV);
        assertEquals(3, r.rows());
        assertEquals(3, r.eventsWritten());
        assertEquals(0, r.unknownLeads());
        assertEquals("3|m-1/open/Spring sale/Mailchimp/2024-03-01 10:30;m-1/sent/Spring sale/Mailchimp/2024-03-01 09:00;"
                + "m-2/sent/Welcome, Bob/Klaviyo/2024-03-02 00:00", events(account), "dates without offset are UTC (spec 2.2.3)");
        assertEquals("2", Db.one("SELECT count(DISTINCT lead_id) FROM lead_email_events WHERE account_id = '" + account + "'"));
    }

    @Test
    void jsonLinesNameTheLeadByIdAndTheLastLineWins() {
        String key = accountWithLeads();
        String account = accountOf(key);
        String annId = get(key, "/api/v1.0/leads?emails=" + list("ann@mail.test")).body().get("result").get(0).get("id").asText();
        EmailEventImport.Result r = run(account, """
                {"leadId":"%s","type":"OPEN","messageId":"j-1","subject":"First","date":"2024-04-01T08:00:00+02:00"}
                {"lead_id":"%s","type":"open","message_id":"j-1","subject":"Second","date":"2024-04-01T09:00:00+02:00","provider":"Brevo"}
                """.formatted(annId, annId));
        assertEquals(2, r.rows());
        assertEquals(1, r.eventsWritten());
        assertEquals("1|j-1/open/Second/Brevo/2024-04-01 07:00", events(account));
    }

    @Test
    void reimportReplacesAndNeverDoubles() {
        String account = accountOf(accountWithLeads());
        run(account, CSV);
        EmailEventImport.Result again = run(account, CSV);
        assertEquals(0, again.eventsWritten(), "unchanged rows are not rewritten");
        String stored = events(account);
        assertEquals("3", stored.substring(0, stored.indexOf('|')));
        EmailEventImport.Result corrected = run(account, CSV.replace("\"Welcome, Bob\",2024-03-02", "Hello Bob,2024-03-03"));
        assertEquals(1, corrected.eventsWritten());
        assertEquals("3|m-1/open/Spring sale/Mailchimp/2024-03-01 10:30;m-1/sent/Spring sale/Mailchimp/2024-03-01 09:00;"
                + "m-2/sent/Hello Bob/Klaviyo/2024-03-03 00:00", events(account));
    }

    @Test
    void rowsOfUnknownLeadsAreSkippedAndCounted() {
        String account = accountOf(accountWithLeads());
        EmailEventImport.Result r = run(account, """
                lead_email,lead_id,type,message_id,date
                ann@mail.test,,sent,u-1,2024-03-01
                nobody@mail.test,,sent,u-2,2024-03-01
                ,ld_missing,open,u-3,2024-03-01
                ann@mail.test,,open,u-1,2024-03-02
                """);
        assertEquals(4, r.rows());
        assertEquals(2, r.eventsWritten());
        assertEquals(2, r.unknownLeads());
        assertEquals(List.of(3L, 4L), r.unknownLeadLines());
        assertEquals("2|u-1/open///2024-03-02 00:00;u-1/sent///2024-03-01 00:00", events(account));
    }

    @Test
    void aBadLineNamesItselfAndImportsNothing() {
        String account = accountOf(accountWithLeads());
        ImportFileException e = assertThrows(ImportFileException.class,
                () -> run(account, CSV + "ann@mail.test,sent,m-9,x,2024-13-01,Mailchimp\n"));
        assertEquals("line 5: invalid date '2024-13-01'. Invalid date format.", e.getMessage());
        assertEquals("0|", events(account), "all or nothing");
        String header = "lead_email,type,message_id,date\n";
        assertEquals("line 2: invalid type 'click'. Accepted values: sent, open", assertThrows(ImportFileException.class,
                () -> run(account, header + "ann@mail.test,click,m,2024-03-01\n")).getMessage());
        assertEquals("line 3: missing leademail (or leadid)", assertThrows(ImportFileException.class,
                () -> run(account, header + "ann@mail.test,sent,m,2024-03-01\n,sent,m,2024-03-01\n")).getMessage());
        assertEquals("line 2: missing messageid", assertThrows(ImportFileException.class,
                () -> run(account, header + "ann@mail.test,sent,,2024-03-01\n")).getMessage());
        assertEquals("line 1: the header has no column messageid", assertThrows(ImportFileException.class,
                () -> run(account, "lead_email,type,date\nann@mail.test,sent,2024-03-01\n")).getMessage());
        assertEquals("line 2: messageid must be at most 255 characters", assertThrows(ImportFileException.class,
                () -> run(account, header + "ann@mail.test,sent," + "m".repeat(256) + ",2024-03-01\n")).getMessage());
        assertEquals("line 2: contains a NUL character", assertThrows(ImportFileException.class,
                () -> run(account, header + "ann@mail.test,sent,m\0x,2024-03-01\n")).getMessage());
        assertEquals("line 1: contains a NUL character", assertThrows(ImportFileException.class,
                () -> run(account, "{\"lead_email\":\"a@b.c\",\"type\":\"sent\",\"message_id\":\"m\\u0000\",\"date\":\"2024-03-01\"}")).getMessage());
        assertEquals("line 1: not a JSON object", assertThrows(ImportFileException.class,
                () -> run(account, "{\"type\":\n")).getMessage());
    }

    @Test
    void httpImportAnswersTheCountsAndA400NamingTheLine() {
        String key = accountWithLeads();
        Response r = post(key, "/api/v1.0/email-events/import", CSV);
        assertEquals(200, r.status(), r.raw());
        assertEquals(3, r.body().get("result").get("eventsWritten").asInt());
        assertEquals(0, r.body().get("result").get("unknownLeads").asInt());
        Response bad = post(key, "/api/v1.0/email-events/import", "lead_email,type,message_id,date\nann@mail.test,bounce,m,2024-03-01\n");
        assertEquals(400, bad.status());
        assertEquals("line 2: invalid type 'bounce'. Accepted values: sent, open", bad.message());
        Response empty = post(key, "/api/v1.0/email-events/import", " ");
        assertEquals(400, empty.status());
    }

    @Test
    void httpImportNeedsItsRoleWhichReadOnlyKeysNeverHold() {
        String noRole = newAccount("UTC", List.of(Roles.IMPORT_AD_SPEND, Roles.GET_LEAD_JOURNEY));
        Response forbidden = post(noRole, "/api/v1.0/email-events/import", CSV);
        assertEquals(403, forbidden.status());
        assertEquals("Forbidden, missing api key roles | Import Email Events", forbidden.message());
        String key = newAccount();
        String readOnly = ApiKeys.newKey();
        directory.createKey(accountOf(key), ApiKeys.hash(readOnly), Roles.ALL, true);
        Response refused = post(readOnly, "/api/v1.0/email-events/import", CSV);
        assertEquals(403, refused.status());
        assertEquals("Forbidden, missing api key roles | Import Email Events", refused.message());
    }

    @Test
    void adminCliImportsAFileAndExits2OnABadLine() throws Exception {
        String account = accountOf(accountWithLeads());
        Path file = Files.createTempFile("email-events", ".csv");
        Files.writeString(file, CSV);
        Path bad = Files.createTempFile("email-events-bad", ".csv");
        Files.writeString(bad, CSV + "ann@mail.test,sent,m-9,x,yesterday,Mailchimp\n");
        for (String p : List.of("url", "username", "password")) {
            System.setProperty("datasources.default." + p, TestStack.get().properties().get("datasources.default." + p));
        }
        System.setProperty("flyway.datasources.default.enabled", "false");
        try {
            assertEquals(2, AdminCli.run(new String[]{"email", "import", "--account", account, bad.toString()}));
            assertEquals("0|", events(account));
            assertEquals(0, AdminCli.run(new String[]{"email", "import", "--account", account, file.toString()}));
        } finally {
            System.clearProperty("flyway.datasources.default.enabled");
        }
        assertEquals("3", events(account).substring(0, 1));
    }
}
