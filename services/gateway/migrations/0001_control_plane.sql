-- Up Migration
-- The control plane: who may call the API (organizations, projects, environments, API keys), the
-- players each environment has seen, and the events each environment accepts.

CREATE TABLE organizations (
  organization_id  uuid PRIMARY KEY,
  name             text NOT NULL,
  billing_status   text NOT NULL DEFAULT 'none' CHECK (billing_status IN ('active', 'none', 'overdue')),
  -- Monthly active players a Live environment of the organization may see; NULL: no cap.
  live_mau_cap     integer CHECK (live_mau_cap IS NULL OR live_mau_cap > 0),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE projects (
  project_id       uuid PRIMARY KEY,
  organization_id  uuid NOT NULL REFERENCES organizations,
  name             text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX projects_by_organization ON projects (organization_id, created_at);

-- Every project has exactly one Sandbox and one Live environment, created with it.
CREATE TABLE environments (
  environment_id   uuid PRIMARY KEY,
  project_id       uuid NOT NULL REFERENCES projects,
  kind             text NOT NULL CHECK (kind IN ('Sandbox', 'Live')),
  discovery        boolean NOT NULL DEFAULT false,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, kind)
);

-- The secret of a key is never stored: only the SHA-256 of it, found by the key's public id.
CREATE TABLE api_keys (
  api_key_id       uuid PRIMARY KEY,
  environment_id   uuid NOT NULL REFERENCES environments,
  public_id        text NOT NULL UNIQUE,
  secret_sha256    bytea NOT NULL,
  name             text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  revoked_at       timestamptz,
  last_used_at     timestamptz
);
CREATE INDEX api_keys_by_environment ON api_keys (environment_id, created_at);

CREATE TABLE players (
  environment_id   uuid NOT NULL,
  external_id      text NOT NULL CHECK (char_length(external_id) BETWEEN 1 AND 200),
  time_zone        text,
  attributes       jsonb NOT NULL DEFAULT '{}',
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, external_id)
);

-- properties: name -> {"type": "string"|"number"|"boolean"|"dateTime", "required": boolean}
CREATE TABLE event_definitions (
  environment_id   uuid NOT NULL REFERENCES environments,
  event_key        text NOT NULL,
  active           boolean NOT NULL DEFAULT true,
  description      text,
  properties       jsonb NOT NULL DEFAULT '{}',
  discovered       boolean NOT NULL DEFAULT false,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, event_key)
);

-- Down Migration
DROP TABLE event_definitions;
DROP TABLE players;
DROP TABLE api_keys;
DROP TABLE environments;
DROP TABLE projects;
DROP TABLE organizations;
