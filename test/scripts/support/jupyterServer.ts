/**
 * What the JupyterLab tests need before they start a server: a free loopback port, and
 * JupyterLab installed the way `npm run lab` does (or why it cannot be).
 */
import { createServer } from "node:net";
import { jupyterLab, LabInstallError } from "../../../scripts/labInstall.mjs";

/** A free TCP port on 127.0.0.1 (free when asked; the caller binds it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject).listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Installs JupyterLab the way `npm run lab` does; resolves with why it cannot be, or null.
 * Tests skip with that reason where no package index is reachable.
 */
export async function labUnavailable(): Promise<string | null> {
  try {
    await jupyterLab();
    return null;
  } catch (error) {
    if (error instanceof LabInstallError) return error.message;
    throw error;
  }
}
