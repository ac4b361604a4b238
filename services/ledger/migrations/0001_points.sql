-- Up Migration

-- Current balance per player. Written only together with a journal entry, in the same transaction.
-- The upper bound is the largest balance the service reads back exactly (Number.MAX_SAFE_INTEGER).
CREATE TABLE balances (
  environment_id uuid        NOT NULL,
  player_id      text        NOT NULL,
  balance        bigint      NOT NULL CHECK (balance >= 0) CHECK (balance <= 9007199254740991),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, player_id)
);

-- The append-only points journal: one entry per change of a balance. Never updated or deleted.
-- `seq` is taken after the balance row is locked, so per player it follows the order effects applied.
CREATE TABLE journal (
  entry_id        uuid        PRIMARY KEY,
  seq             bigint      GENERATED ALWAYS AS IDENTITY UNIQUE,
  organization_id uuid        NOT NULL,
  environment_id  uuid        NOT NULL,
  player_id       text        NOT NULL,
  kind            text        NOT NULL CHECK (kind IN ('adjustment', 'purchase', 'reward')),
  amount          bigint      NOT NULL CHECK (amount <> 0),
  balance_after   bigint      NOT NULL CHECK (balance_after >= 0),
  reason          text,
  idempotency_key text,
  source_ref      text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX journal_player ON journal (environment_id, player_id, seq);

CREATE FUNCTION journal_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the points journal is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER journal_no_update_or_delete BEFORE UPDATE OR DELETE ON journal
  FOR EACH ROW EXECUTE FUNCTION journal_is_append_only();
CREATE TRIGGER journal_no_truncate BEFORE TRUNCATE ON journal
  FOR EACH STATEMENT EXECUTE FUNCTION journal_is_append_only();

-- Idempotency keys of adjustments and purchases: one set per player. The response stored is the
-- business outcome of the request that claimed the key; a retry with the key is answered with it.
CREATE TABLE idempotency_keys (
  environment_id  uuid        NOT NULL,
  player_id       text        NOT NULL,
  key             text        NOT NULL CHECK (char_length(key) BETWEEN 1 AND 200),
  operation       text        NOT NULL CHECK (operation IN ('adjustment', 'purchase')),
  request_hash    text        NOT NULL,
  -- What the key is bound to: the amount of an adjustment, the listing key of a purchase.
  target          text        NOT NULL,
  response_status integer,
  response_body   jsonb,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, player_id, key)
);

-- The ledger's invariants, for tests and operators: returns one row per violation, none when sound.
-- Every balance equals the sum of its journal entries, each entry's balance_after is the running sum
-- of the player's entries, and no balance is below zero.
CREATE FUNCTION balance_equals_journal(p_environment_id uuid DEFAULT NULL)
RETURNS TABLE (environment_id uuid, player_id text, violation text, expected bigint, actual bigint)
LANGUAGE sql STABLE SET search_path FROM CURRENT AS $$
  WITH sums AS (
    SELECT j.environment_id, j.player_id, sum(j.amount)::bigint AS total
    FROM journal j
    WHERE p_environment_id IS NULL OR j.environment_id = p_environment_id
    GROUP BY j.environment_id, j.player_id
  ),
  scoped_balances AS (
    SELECT b.environment_id, b.player_id, b.balance
    FROM balances b
    WHERE p_environment_id IS NULL OR b.environment_id = p_environment_id
  ),
  running AS (
    SELECT j.environment_id, j.player_id, j.balance_after,
           (sum(j.amount) OVER (PARTITION BY j.environment_id, j.player_id ORDER BY j.seq))::bigint AS running_sum
    FROM journal j
    WHERE p_environment_id IS NULL OR j.environment_id = p_environment_id
  )
  SELECT coalesce(b.environment_id, s.environment_id), coalesce(b.player_id, s.player_id),
         'balance_differs_from_journal', coalesce(s.total, 0), coalesce(b.balance, 0)
  FROM scoped_balances b FULL JOIN sums s USING (environment_id, player_id)
  WHERE coalesce(b.balance, 0) <> coalesce(s.total, 0)
  UNION ALL
  SELECT b.environment_id, b.player_id, 'balance_below_zero', 0, b.balance
  FROM scoped_balances b WHERE b.balance < 0
  UNION ALL
  SELECT r.environment_id, r.player_id, 'balance_after_differs_from_running_sum', r.running_sum, r.balance_after
  FROM running r WHERE r.balance_after <> r.running_sum
$$;

-- Down Migration
DROP FUNCTION balance_equals_journal(uuid);
DROP TABLE idempotency_keys;
DROP TABLE journal;
DROP FUNCTION journal_is_append_only();
DROP TABLE balances;
