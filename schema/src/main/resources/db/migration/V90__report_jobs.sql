-- Asynchronous report generation (spec 4.13: POST /reports/generate, GET /reports/poll/{externalId}); docs/reports.md.
-- One row per job, shared by every API node: workers claim PENDING rows (and RUNNING rows whose lease ran out, the
-- node that held them having died) with FOR UPDATE SKIP LOCKED, save each computed part with the rows so far, and
-- resume a retried job at its first part not saved. Reversible: drop the table (jobs in flight are lost).
CREATE TABLE report_jobs (
    id            text        PRIMARY KEY,                 -- the externalId handed to the caller
    account_id    text        NOT NULL REFERENCES accounts (id),
    report_type   text        NOT NULL,                    -- ReportType.name(), e.g. attribution
    time_zone     text        NOT NULL,                    -- the account zone when generated: dates were read in it
    parameters    text        NOT NULL,                    -- JSON object of the configuration as parameter strings
    columns       text        NOT NULL,                    -- JSON array of the result columns (CSV header)
    status        text        NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'RUNNING', 'DONE', 'FAILED')),
    parts_total   integer     NOT NULL,                    -- units of work (one per requested id)
    parts_done    integer     NOT NULL DEFAULT 0,
    rows_json     text        NOT NULL DEFAULT '[]',       -- result rows of the parts done, in order (text keeps key order)
    notes_json    text        NOT NULL DEFAULT '[]',       -- messages of the parts done (e.g. ids not found at the level)
    error_message text,
    attempts      integer     NOT NULL DEFAULT 0,
    lease_owner   text,
    lease_until   timestamptz,                             -- RUNNING: lease end; PENDING after an error: not before
    created_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    started_at    timestamptz,
    finished_at   timestamptz,
    expires_at    timestamptz                              -- DONE/FAILED: results are deleted after this
);
CREATE INDEX report_jobs_due ON report_jobs (created_at) WHERE status IN ('PENDING', 'RUNNING');
CREATE INDEX report_jobs_expiry ON report_jobs (expires_at) WHERE expires_at IS NOT NULL;
