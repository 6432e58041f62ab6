/**
 * The configuration files of `npm run cluster:local` (pure, so a unit test reads what they say):
 * PgBouncer in transaction mode in front of PostgreSQL, and nginx balancing round-robin across
 * the nodes. Every path is inside the run's own folder, so nothing of the machine's own nginx or
 * PgBouncer set-up is read or changed.
 */

export type PoolerSettings = {
  dir: string;
  port: number;
  /** The database as PgBouncer reaches it (PostgreSQL itself). */
  upstream: URL;
  /** Server connections per database/user pair, shared by every node. */
  poolSize: number;
};

/** `pgbouncer.ini`: clients connect without a password on 127.0.0.1; PgBouncer logs in with the URL's. */
export function pgbouncerIni(s: PoolerSettings): string {
  const db = decodeURIComponent(s.upstream.pathname.slice(1)) || "postgres";
  const host = s.upstream.hostname === "localhost" ? "127.0.0.1" : s.upstream.hostname;
  const server = [
    `host=${host}`,
    `port=${s.upstream.port || "5432"}`,
    `dbname=${db}`,
    `user=${decodeURIComponent(s.upstream.username || "postgres")}`,
    s.upstream.password ? `password=${decodeURIComponent(s.upstream.password)}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return `[databases]
${db} = ${server}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${s.port}
unix_socket_dir =
auth_type = trust
auth_file = ${s.dir}/userlist.txt
; A server connection serves one transaction at a time and then goes back to the pool: session
; state (LISTEN, session advisory locks, prepared statements) does not survive, so the nodes use
; DATABASE_DIRECT_URL for those and run with DATABASE_PREPARED_STATEMENTS=off.
pool_mode = transaction
default_pool_size = ${s.poolSize}
max_client_conn = 1000
; postgres.js may send these start-up parameters; PgBouncer refuses unknown ones otherwise.
ignore_startup_parameters = extra_float_digits,options
server_reset_query =
logfile = ${s.dir}/pgbouncer.log
pidfile = ${s.dir}/pgbouncer.pid
`;
}

/** `userlist.txt`: the user names PgBouncer admits (trust: the password column is not checked). */
export function pgbouncerUsers(user: string): string {
  return `"${user.replace(/"/g, '""')}" ""\n`;
}

export type BalancerSettings = { dir: string; port: number; nodePorts: number[] };

/**
 * `nginx.conf`: round-robin across the nodes, `X-Forwarded-For` and `X-Forwarded-Proto` set (the
 * nodes run with TRUST_PROXY=true), no buffering (chat streams are server-sent events), and a node
 * that refuses connections marked down for a few seconds while the other takes its requests.
 */
export function nginxConf(s: BalancerSettings): string {
  const servers = s.nodePorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join("\n");
  return `daemon off;
worker_processes 1;
pid ${s.dir}/nginx.pid;
error_log ${s.dir}/nginx-error.log warn;

events {
  worker_connections 4096;
}

http {
  access_log off;
  client_body_temp_path ${s.dir}/nginx-tmp/body;
  proxy_temp_path ${s.dir}/nginx-tmp/proxy;
  fastcgi_temp_path ${s.dir}/nginx-tmp/fastcgi;
  uwsgi_temp_path ${s.dir}/nginx-tmp/uwsgi;
  scgi_temp_path ${s.dir}/nginx-tmp/scgi;
  # Photo uploads and lead feeds are bigger than nginx's 1 MB default; the nodes enforce their own limits.
  client_max_body_size 64m;

  upstream crm_nodes {
${servers}
    keepalive 64;
  }

  server {
    # Both loopbacks: "localhost" may resolve to ::1 first (browsers, Node's fetch).
    listen 127.0.0.1:${s.port};
    listen [::1]:${s.port};

    location / {
      proxy_pass http://crm_nodes;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
      proxy_connect_timeout 2s;
      # A node that is down (refused, reset before answering) gives the request to the other;
      # nginx never resends a POST a node may have received.
      proxy_next_upstream error timeout;
    }
  }
}
`;
}
