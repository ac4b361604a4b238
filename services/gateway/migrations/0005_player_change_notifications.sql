-- Up Migration
-- Every gateway replica keeps the players it has seen (zone, attributes, active month) until the
-- month changes; a change to a player's zone or attributes, or its removal, is announced on the
-- channel `<schema>_players` so each replica drops its copy. A trigger reaches every writer.
CREATE FUNCTION notify_player_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(
    TG_TABLE_SCHEMA || '_players',
    json_build_array(OLD.environment_id, OLD.external_id)::text
  );
  RETURN NULL;
END;
$$;

CREATE TRIGGER players_changed
  AFTER UPDATE OF time_zone, attributes ON players
  FOR EACH ROW
  WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone OR OLD.attributes IS DISTINCT FROM NEW.attributes)
  EXECUTE FUNCTION notify_player_changed();

CREATE TRIGGER players_removed
  AFTER DELETE ON players
  FOR EACH ROW
  EXECUTE FUNCTION notify_player_changed();

-- Down Migration
DROP TRIGGER players_removed ON players;
DROP TRIGGER players_changed ON players;
DROP FUNCTION notify_player_changed();
