-- Up Migration

-- The shop as defined by `engage apply` (section `marketplace`): one row per item and collection,
-- the definition kept as the file gave it (validated by MarketplaceSectionSchema).
CREATE TABLE shop_items (
  environment_id uuid        NOT NULL,
  item_key       text        NOT NULL,
  position       integer     NOT NULL,
  definition     jsonb       NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, item_key)
);

CREATE TABLE shop_collections (
  environment_id uuid        NOT NULL,
  collection_key text        NOT NULL,
  position       integer     NOT NULL,
  definition     jsonb       NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, collection_key)
);

-- Units sold per item occurrence, for every player. Moved only by a conditional upsert bounded by the
-- item's stock, in the purchase's transaction.
CREATE TABLE item_sales (
  environment_id uuid    NOT NULL,
  item_key       text    NOT NULL,
  occurrence     integer NOT NULL,
  sold           integer NOT NULL CHECK (sold >= 0),
  PRIMARY KEY (environment_id, item_key, occurrence)
);

-- Purchases of one player per item occurrence, bounded by the item's purchase limit.
CREATE TABLE player_item_purchases (
  environment_id uuid    NOT NULL,
  player_id      text    NOT NULL,
  item_key       text    NOT NULL,
  occurrence     integer NOT NULL,
  purchased      integer NOT NULL CHECK (purchased >= 0),
  PRIMARY KEY (environment_id, player_id, item_key, occurrence)
);

-- Every purchase made, append-only like the journal. entry_id is the journal entry of the charge
-- (null for a free item).
CREATE TABLE purchases (
  purchase_id     uuid        PRIMARY KEY,
  environment_id  uuid        NOT NULL,
  player_id       text        NOT NULL,
  item_key        text        NOT NULL,
  occurrence      integer     NOT NULL,
  price           bigint      NOT NULL CHECK (price >= 0),
  contents        jsonb       NOT NULL,
  entry_id        uuid        REFERENCES journal (entry_id),
  balance_after   bigint      NOT NULL CHECK (balance_after >= 0),
  idempotency_key text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX purchases_player ON purchases (environment_id, player_id, created_at);

-- Reward grants credited, one row per grantId: the dedupe record of the rewards topic, kept for good
-- (longer than the topic's retention). entry_id is the journal entry of the points credited, if any.
CREATE TABLE reward_grants (
  environment_id uuid        NOT NULL,
  grant_id       uuid        NOT NULL,
  player_id      text        NOT NULL,
  source         text        NOT NULL,
  source_key     text        NOT NULL,
  occurrence     integer     NOT NULL,
  points         bigint      NOT NULL,
  outcome        text        NOT NULL CHECK (outcome IN ('credited', 'nothing_to_credit', 'balance_limit_reached')),
  entry_id       uuid        REFERENCES journal (entry_id),
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, grant_id)
);

-- The journal's companion record: every catalog item a player was granted, by a purchase's contents
-- or a reward. The game server reads it with GET /v1/player-items (see docs/ledger.md).
CREATE TABLE player_items (
  item_seq         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  environment_id   uuid        NOT NULL,
  player_id        text        NOT NULL,
  catalog_item_key text        NOT NULL,
  value            jsonb       NOT NULL,
  source           text        NOT NULL CHECK (source IN ('purchase', 'reward')),
  source_ref       text        NOT NULL,
  entry_id         uuid        REFERENCES journal (entry_id),
  granted_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_items_player ON player_items (environment_id, player_id, item_seq);

CREATE TRIGGER purchases_no_update_or_delete BEFORE UPDATE OR DELETE ON purchases
  FOR EACH ROW EXECUTE FUNCTION journal_is_append_only();
CREATE TRIGGER player_items_no_update_or_delete BEFORE UPDATE OR DELETE ON player_items
  FOR EACH ROW EXECUTE FUNCTION journal_is_append_only();

-- Down Migration
DROP TABLE player_items;
DROP TABLE reward_grants;
DROP TABLE purchases;
DROP TABLE player_item_purchases;
DROP TABLE item_sales;
DROP TABLE shop_collections;
DROP TABLE shop_items;
