import { processGlobal } from "../util/process-global";
import type { SearchEngine } from "./engine";
import type { SearchIndexWriter } from "./index-writer";

/** The process's search engine and index writer, chosen from the configuration on first use. */
export const searchBackends = () =>
  processGlobal("search-backends", () => ({ engine: undefined as SearchEngine | undefined, writer: undefined as SearchIndexWriter | null | undefined }));
