import type { Kysely } from 'kysely';

// Frozen: never edit after release; add a new dated file instead.
// Until now sign-in gave every new user the placeholder name 'User'. The document check now looks
// for the holder's own name in each certificate, so a placeholder must read as "no name yet" (the
// app shows 'User' for an empty name and asks for the real one before a certificate is added).
// Only rows the holder never saved are cleared: created_at = updated_at (a save sets updated_at).

export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('user').set({ full_name: '' }).where('full_name', '=', 'User').whereRef('updated_at', '=', 'created_at').execute();
}

export async function down(): Promise<void> {
  // Nothing to undo: an empty name and the placeholder read the same to every screen.
}
