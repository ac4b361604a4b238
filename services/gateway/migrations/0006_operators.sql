-- Up Migration
-- Operators of the admin API and console: accounts, their role in each organization, their
-- server-side sessions, and the audit log of every write made through the admin API.

CREATE TABLE operators (
  operator_id      uuid PRIMARY KEY,
  -- Kept trimmed and lower-cased: one account per address.
  email            text NOT NULL UNIQUE CHECK (email = lower(btrim(email))),
  display_name     text NOT NULL,
  -- scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>: the parameters travel with the hash.
  password_hash    text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  organization_id  uuid NOT NULL REFERENCES organizations,
  operator_id      uuid NOT NULL REFERENCES operators ON DELETE CASCADE,
  role             text NOT NULL CHECK (role IN ('owner', 'admin', 'designer', 'support', 'viewer')),
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, operator_id)
);
CREATE INDEX memberships_by_operator ON memberships (operator_id);

-- Only the SHA-256 of a session id is stored: a copy of this table signs nobody in.
CREATE TABLE operator_sessions (
  session_sha256   bytea PRIMARY KEY,
  operator_id      uuid NOT NULL REFERENCES operators ON DELETE CASCADE,
  csrf_token       text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  last_seen_at     timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL
);
CREATE INDEX operator_sessions_by_expiry ON operator_sessions (expires_at);

CREATE TABLE audit_log (
  audit_id         uuid PRIMARY KEY,
  organization_id  uuid NOT NULL,
  at               timestamptz NOT NULL DEFAULT clock_timestamp(),
  actor_kind       text NOT NULL CHECK (actor_kind IN ('operator', 'admin-token')),
  operator_id      uuid,
  operator_email   text,
  method           text NOT NULL,
  route            text NOT NULL,
  targets          jsonb NOT NULL DEFAULT '{}',
  before           jsonb,
  after            jsonb,
  difference       jsonb
);
CREATE INDEX audit_log_by_organization ON audit_log (organization_id, at, audit_id);

-- Down Migration
DROP TABLE audit_log;
DROP TABLE operator_sessions;
DROP TABLE memberships;
DROP TABLE operators;
