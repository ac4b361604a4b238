-- Up Migration
-- The control plane's tables were the gateway's until the control plane became a service of its
-- own: they move into this schema with their rows, indexes, sequences and constraints (the gateway's
-- migrations, which run first, created them). Foreign keys keep pointing at the same tables.
ALTER TABLE gateway.organizations SET SCHEMA control_plane;
ALTER TABLE gateway.projects SET SCHEMA control_plane;
ALTER TABLE gateway.environments SET SCHEMA control_plane;
ALTER TABLE gateway.api_keys SET SCHEMA control_plane;
ALTER TABLE gateway.event_definitions SET SCHEMA control_plane;
ALTER TABLE gateway.player_attribute_definitions SET SCHEMA control_plane;
ALTER TABLE gateway.operators SET SCHEMA control_plane;
ALTER TABLE gateway.memberships SET SCHEMA control_plane;
ALTER TABLE gateway.operator_sessions SET SCHEMA control_plane;
ALTER TABLE gateway.operator_invitations SET SCHEMA control_plane;
ALTER TABLE gateway.audit_log SET SCHEMA control_plane;
ALTER TABLE gateway.webhook_endpoints SET SCHEMA control_plane;
ALTER TABLE gateway.webhook_deliveries SET SCHEMA control_plane;

-- Key and definition records the gateway recorded but had not published yet are now this outbox's.
WITH moved AS (
  DELETE FROM gateway.outbox
  WHERE topic LIKE '%api-keys.v1' OR topic LIKE '%definitions.applied.v1'
  RETURNING id, topic, key, value, headers, created_at
)
INSERT INTO control_plane.outbox (topic, key, value, headers, created_at)
SELECT topic, key, value, headers, created_at FROM moved ORDER BY id;

-- The webhook consumers keep their group names: where the gateway's had read up to, they go on,
-- so no change is queued twice nor skipped.
WITH moved AS (
  DELETE FROM gateway.kafka_offsets WHERE group_id LIKE '%gateway-webhooks-%'
  RETURNING group_id, topic, partition, next_offset, updated_at
)
INSERT INTO control_plane.kafka_offsets (group_id, topic, partition, next_offset, updated_at)
SELECT group_id, topic, partition, next_offset, updated_at FROM moved;

-- Down Migration
INSERT INTO gateway.kafka_offsets (group_id, topic, partition, next_offset, updated_at)
SELECT group_id, topic, partition, next_offset, updated_at FROM control_plane.kafka_offsets
WHERE group_id LIKE '%gateway-webhooks-%';
DELETE FROM control_plane.kafka_offsets WHERE group_id LIKE '%gateway-webhooks-%';
INSERT INTO gateway.outbox (topic, key, value, headers, created_at)
SELECT topic, key, value, headers, created_at FROM control_plane.outbox
WHERE topic LIKE '%api-keys.v1' OR topic LIKE '%definitions.applied.v1' ORDER BY id;
DELETE FROM control_plane.outbox WHERE topic LIKE '%api-keys.v1' OR topic LIKE '%definitions.applied.v1';
ALTER TABLE control_plane.webhook_deliveries SET SCHEMA gateway;
ALTER TABLE control_plane.webhook_endpoints SET SCHEMA gateway;
ALTER TABLE control_plane.audit_log SET SCHEMA gateway;
ALTER TABLE control_plane.operator_invitations SET SCHEMA gateway;
ALTER TABLE control_plane.operator_sessions SET SCHEMA gateway;
ALTER TABLE control_plane.memberships SET SCHEMA gateway;
ALTER TABLE control_plane.operators SET SCHEMA gateway;
ALTER TABLE control_plane.player_attribute_definitions SET SCHEMA gateway;
ALTER TABLE control_plane.event_definitions SET SCHEMA gateway;
ALTER TABLE control_plane.api_keys SET SCHEMA gateway;
ALTER TABLE control_plane.environments SET SCHEMA gateway;
ALTER TABLE control_plane.projects SET SCHEMA gateway;
ALTER TABLE control_plane.organizations SET SCHEMA gateway;
