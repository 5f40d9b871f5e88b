-- Webhook subscriptions get roles of their own (Roles.*_WEBHOOK_SUBSCRIPTIONS). Keys that existed before hold every
-- role they were given then; they keep working on webhook subscriptions: read-only keys may list them, other keys may
-- also create, update and delete them. Accounts whose plan lists permitted roles get the new roles permitted too.
UPDATE api_keys SET roles = roles || ARRAY['Get Webhook Subscriptions']
WHERE NOT ('Get Webhook Subscriptions' = ANY (roles));

UPDATE api_keys SET roles = roles || ARRAY['Create Webhook Subscriptions', 'Update Webhook Subscriptions', 'Delete Webhook Subscriptions']
WHERE NOT read_only AND NOT ('Create Webhook Subscriptions' = ANY (roles));

UPDATE accounts SET permitted_roles = permitted_roles || ARRAY['Get Webhook Subscriptions', 'Create Webhook Subscriptions',
    'Update Webhook Subscriptions', 'Delete Webhook Subscriptions']
WHERE permitted_roles IS NOT NULL AND NOT ('Get Webhook Subscriptions' = ANY (permitted_roles));
