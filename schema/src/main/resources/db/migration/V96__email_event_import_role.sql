-- The email-event import (docs/email-events.md) gets a role of its own, Import Email Events (Roles.IMPORT_EMAIL_EVENTS),
-- which a new account's first key holds. Keys that existed before and could import ad spend (first keys, and keys
-- given that role) may import email events too; read-only keys never hold an import role (spec 5.4). Accounts whose
-- plan lists permitted roles permit the new role when they permit the ad-spend import.
-- Reversible: remove the role from both arrays (array_remove).
UPDATE api_keys SET roles = roles || ARRAY['Import Email Events']
WHERE NOT read_only AND 'Import Ad Spend' = ANY (roles) AND NOT ('Import Email Events' = ANY (roles));

UPDATE accounts SET permitted_roles = permitted_roles || ARRAY['Import Email Events']
WHERE permitted_roles IS NOT NULL AND 'Import Ad Spend' = ANY (permitted_roles)
  AND NOT ('Import Email Events' = ANY (permitted_roles));
