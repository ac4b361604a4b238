-- Up Migration
-- The admin API lists organizations in pages, oldest first: the page order's index.
CREATE INDEX organizations_created_at_idx ON organizations (created_at, organization_id);

-- Down Migration
DROP INDEX organizations_created_at_idx;
