// `node services/ledger/src/tools/replay-dead-letters.ts <id>...`: the shared replay tool
// (`npm run replay-dead-letters -- ledger <id>...`) on the ledger's schema, kept for the commands
// written against it. See docs/operating.md#dead-letters.
process.argv.splice(2, 0, 'ledger');
await import('@engage/kafka/tools/replay-dead-letters.ts');
