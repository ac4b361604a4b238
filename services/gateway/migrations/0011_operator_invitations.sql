-- Up Migration
-- Invitations to join an organization: an operator becomes a member only by accepting one, signed
-- in as the invited email or with the invitation's token (a new account sets its password then).
-- Only the SHA-256 of a token is stored.
CREATE TABLE operator_invitations (
  invitation_id    uuid PRIMARY KEY,
  organization_id  uuid NOT NULL REFERENCES organizations,
  email            text NOT NULL CHECK (email = lower(btrim(email))),
  role             text NOT NULL CHECK (role IN ('owner', 'admin', 'designer', 'support', 'viewer')),
  token_sha256     bytea NOT NULL UNIQUE,
  invited_by       uuid REFERENCES operators ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  -- Null while pending; set once, by the invitee or by an owner.
  answer           text CHECK (answer IN ('accepted', 'declined', 'revoked')),
  answered_at      timestamptz
);
CREATE INDEX operator_invitations_pending_by_organization
  ON operator_invitations (organization_id, created_at) WHERE answer IS NULL;
CREATE INDEX operator_invitations_pending_by_email
  ON operator_invitations (email) WHERE answer IS NULL;

-- Down Migration
DROP TABLE operator_invitations;
