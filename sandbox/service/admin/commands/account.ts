/** `account deactivate <identity>` and `account reactivate <identity>`: a deactivated account is answered 410. */
import type { DatabaseSync } from "node:sqlite";
import { getIdentity, setDeactivated } from "../../state/accounts.ts";
import type { Command, Output } from "../command.ts";
import { positiveInt } from "../input.ts";

function setState(db: DatabaseSync, text: string, deactivated: boolean): Output {
  const id = positiveInt(text, "Identity");
  setDeactivated(db, id, deactivated);
  const identity = getIdentity(db, id);
  return { text: `Identity ${id} '${identity.name}' is ${deactivated ? "deactivated" : "active"}`, json: identity };
}

export const accountCommands: Command[] = [
  {
    words: ["account", "deactivate"],
    usage: "account deactivate <identity>",
    options: [],
    args: ["identity"],
    run: (db, { args }) => setState(db, args[0], true),
  },
  {
    words: ["account", "reactivate"],
    usage: "account reactivate <identity>",
    options: [],
    args: ["identity"],
    run: (db, { args }) => setState(db, args[0], false),
  },
];
