let current: string | undefined;

/** Names the running test file's database (test/setup/file-database.ts, before the file loads). */
export function useFileDatabase(databaseUrl: string): void {
  current = databaseUrl;
}

/** The running test file's database: a migrated one of its own, that no other file sees. */
export function fileDatabaseUrl(): string {
  if (!current)
    throw new Error(
      'This file has no database: test/setup/file-database.ts gives one to integration files only',
    );
  return current;
}
