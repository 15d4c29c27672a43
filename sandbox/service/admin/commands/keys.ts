/**
 * `keys list`, `keys create` and `keys revoke`. A listing shows a key's id, identity, hint and
 * dates, never the key or its digest; `keys create` prints the new key once, as the console
 * of the real service does, and it cannot be shown again.
 */
import { getIdentity } from "../../state/accounts.ts";
import { createKey, listKeys, revokeKey } from "../../state/keys.ts";
import type { Command } from "../command.ts";
import { isoInstant, optionalString, positiveInt, requiredString } from "../input.ts";
import { table } from "../table.ts";

const CREATE_USAGE = "keys create --identity N [--expires ISO]";

export const keyCommands: Command[] = [
  {
    words: ["keys", "list"],
    usage: "keys list [--identity N]",
    options: ["identity"],
    args: [],
    run: (db, { options }) => {
      const text = optionalString(options, "identity");
      const identityId = text === undefined ? undefined : getIdentity(db, positiveInt(text, "--identity")).identity_id;
      const keys = listKeys(db, identityId);
      const rows = keys.map((k) => [k.id, k.identity_id, k.hint, k.created_at, k.expires_at ?? "never", k.revoked_at]);
      return { text: table(["id", "identity", "hint", "created", "expires", "revoked"], rows), json: keys };
    },
  },
  {
    words: ["keys", "create"],
    usage: CREATE_USAGE,
    options: ["identity", "expires"],
    args: [],
    run: (db, { options, now }) => {
      const identityId = positiveInt(requiredString(options, "identity", CREATE_USAGE), "--identity");
      const expiresText = optionalString(options, "expires");
      const expiresAt = expiresText === undefined ? undefined : isoInstant(expiresText, "--expires");
      const { id, key } = createKey(db, identityId, { expiresAt, now });
      return {
        text: `Created key ${id} for identity ${identityId} (expires ${
          expiresAt ?? "never"
        }). It is shown this once; only its digest is kept:\n${key}`,
        json: { id, identity_id: identityId, expires_at: expiresAt ?? null, key },
      };
    },
  },
  {
    words: ["keys", "revoke"],
    usage: "keys revoke <id>",
    options: [],
    args: ["id"],
    run: (db, { args, now }) => {
      const id = positiveInt(args[0], "Key id");
      revokeKey(db, id, now);
      const key = listKeys(db).find((k) => k.id === id)!;
      return { text: `Revoked key ${id} (${key.hint}) of identity ${key.identity_id} at ${key.revoked_at}`, json: key };
    },
  },
];
