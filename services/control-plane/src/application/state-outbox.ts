/**
 * Where the gateway's state-change records go: rows of its outbox, written in the transaction of
 * the change they describe (so a rolled-back change publishes nothing and a committed one is never
 * lost), then published by the outbox relay, which `kick` wakes after the commit.
 */
export interface StateOutbox {
  topicPrefix: string;
  kick: () => void;
}
