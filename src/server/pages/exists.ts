import { getDb } from "../db";

/**
 * Whether a page's record exists, asked while the page renders on the server, so that an unknown id is a real 404
 * (Next's notFound()) at once, rather than a page that loads, asks the API and waits on its answer.
 */
export async function runExists(id: string): Promise<boolean> {
  const db = await getDb();
  return (await db.run.findUnique({ where: { id }, select: { id: true } })) !== null;
}

export async function trajectoryExists(id: string): Promise<boolean> {
  const db = await getDb();
  return (await db.trajectory.findUnique({ where: { id }, select: { id: true } })) !== null;
}
