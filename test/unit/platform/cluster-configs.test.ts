import { describe, expect, it } from "vitest";
import { nginxConf, pgbouncerIni, pgbouncerUsers } from "../../../scripts/cluster-local/configs";

describe("cluster:local configuration files", () => {
  it("PgBouncer: transaction mode, the database reached with the URL's decoded credentials, files in the run's folder", () => {
    const ini = pgbouncerIni({ dir: "/tmp/run", port: 6543, upstream: new URL("postgres://crm%40ops:p%3Aw@localhost:5433/crm_db"), poolSize: 15 });
    expect(ini).toMatch(/^crm_db = host=127\.0\.0\.1 port=5433 dbname=crm_db user=crm@ops password=p:w$/m);
    expect(ini).toMatch(/^pool_mode = transaction$/m);
    expect(ini).toMatch(/^listen_port = 6543$/m);
    expect(ini).toMatch(/^default_pool_size = 15$/m);
    expect(ini).toMatch(/^auth_file = \/tmp\/run\/userlist\.txt$/m);
    expect(pgbouncerUsers('we"ird')).toBe('"we""ird" ""\n');
  });

  it("nginx: every node in the upstream, X-Forwarded-For set, no buffering, POSTs never resent", () => {
    const conf = nginxConf({ dir: "/tmp/run", port: 8089, nodePorts: [3201, 3202, 3203] });
    expect(conf.match(/server 127\.0\.0\.1:(\d+) max_fails=1/g)).toHaveLength(3);
    expect(conf).toContain("listen 127.0.0.1:8089;");
    expect(conf).toContain("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;");
    expect(conf).toContain("proxy_buffering off;");
    expect(conf).toMatch(/proxy_next_upstream error timeout;/);
    expect(conf).not.toMatch(/non_idempotent/);
  });
});
