/**
 * A PostgreSQL cluster of the bench's own (initdb + pg_ctl from PGBIN, default Debian's 15), so a
 * bench can stop and start the server under load without touching the machine's shared one.
 * As root, initdb and the server run as the `postgres` OS user (they refuse to run as root).
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";

const PGBIN = process.env.PGBIN ?? "/usr/lib/postgresql/15/bin";

export class PrivatePostgres {
  constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/bench`;
  }

  private run(binary: string, args: string[]): string {
    const command = path.join(PGBIN, binary);
    const asRoot = process.getuid?.() === 0;
    return execFileSync(asRoot ? "runuser" : command, asRoot ? ["-u", "postgres", "--", command, ...args] : args, {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  }

  /** Creates the cluster on first use, starts it and waits until it accepts connections. */
  start(): void {
    const data = path.join(this.dir, "data");
    if (!existsSync(path.join(data, "PG_VERSION"))) {
      mkdirSync(this.dir, { recursive: true });
      if (process.getuid?.() === 0) {
        const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
        const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
        chownSync(this.dir, uid, gid);
      }
      this.run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]);
    }
    this.run("pg_ctl", [
      "-D", data, "-l", path.join(this.dir, "server.log"), "-w", "start",
      "-o", `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c max_connections=100`,
    ]);
  }

  /** Fast shutdown: open connections are cut, the port closes, clients get ECONNREFUSED. */
  stop(): void {
    this.run("pg_ctl", ["-D", path.join(this.dir, "data"), "-m", "fast", "-w", "stop"]);
  }

  isRunning(): boolean {
    try {
      this.run("pg_ctl", ["-D", path.join(this.dir, "data"), "status"]);
      return true;
    } catch {
      return false;
    }
  }
}
