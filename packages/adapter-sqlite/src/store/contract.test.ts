import { runStoreContract } from "@berth/engine/store-contract";
import { afterAll } from "vitest";
import { makeTempDir } from "../../test-support/temp-dir.fixture.js";
import { openStore } from "../open-store.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

let counter = 0;
runStoreContract("sqlite file", () => openStore(dir.file(`contract-${++counter}.db`)));
runStoreContract("sqlite :memory:", () => openStore(":memory:"));
