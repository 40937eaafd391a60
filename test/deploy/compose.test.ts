/**
 * deploy/compose/compose.yaml (PostgreSQL + MinIO + two deckhand instances behind Caddy) is
 * documentation that cannot be run here (no container registry): its shape is checked
 * instead — it parses, every instance gets the variables deckhand and Bun's S3 client
 * actually read, and those values are ones deckhand's own configuration accepts.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../src/base/config.ts";
import { parseS3Url } from "../../src/store/s3/blobs.ts";

test("the compose example gives two instances one database and one bucket, in forms deckhand accepts", () => {
  const compose = Bun.YAML.parse(readFileSync(join(import.meta.dir, "../../deploy/compose/compose.yaml"), "utf8")) as {
    services: Record<string, { environment?: Record<string, string>; volumes?: string[]; command?: string[] }>;
  };
  const instances = Object.entries(compose.services).filter(([name]) => name.startsWith("deckhand-"));
  expect(instances).toHaveLength(2);
  for (const [, service] of instances) {
    const env = service.environment!;
    const config = resolveConfig({}, env);
    expect(config.databaseUrl).toStartWith("postgres://");
    expect(parseS3Url(config.storage!)).toEqual({ bucket: "decks", prefix: "staged/" });
    for (const name of ["S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_REGION"]) expect(env[name]).toBeTruthy();
  }
  // Each instance its own spool volume; the proxy sends to both.
  expect(new Set(instances.map(([, s]) => s.volumes![0]))).toHaveProperty("size", 2);
  expect(compose.services.proxy!.command!.filter((arg) => arg.startsWith("deckhand-"))).toEqual(["deckhand-1:8080", "deckhand-2:8080"]);
  expect(compose.services.minio!.environment!.MINIO_ROOT_PASSWORD).toBe(instances[0]![1].environment!.S3_SECRET_ACCESS_KEY);
});
