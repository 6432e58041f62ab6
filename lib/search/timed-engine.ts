import { metrics } from "../metrics/registry";
import type { SearchEngine, SearchRequest, SearchResult, SearchScope } from "./engine";

/** The outermost engine: every search's time (result cache included) in `crm_search_duration_seconds`, by engine. */
export class TimedSearchEngine implements SearchEngine {
  readonly name: SearchEngine["name"];

  constructor(readonly inner: SearchEngine) {
    this.name = inner.name;
  }

  async search(scope: SearchScope, req: SearchRequest): Promise<SearchResult> {
    const stop = metrics().searchDuration.startTimer({ engine: this.name });
    try {
      return await this.inner.search(scope, req);
    } finally {
      stop();
    }
  }
}
