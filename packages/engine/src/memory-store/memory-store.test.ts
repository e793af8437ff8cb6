import { runStoreContract } from "../testing/store-contract/contract.js";
import { createMemoryStore } from "./memory-store.js";

runStoreContract("memory", createMemoryStore);
