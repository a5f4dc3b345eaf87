import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EnvironmentDown, EpisodeBroken } from "@/core/envs/remote/faults";
import { RemoteEnvSpec } from "@/core/envs/remote/spec";
import { parseRunConfig } from "@/core/train/config";
import { remoteRunProblem } from "@/core/train/remoteRun";
import type { Environment, Observation } from "@/core/types";
import { createTestDb, describeEachDatabase, type TestDb } from "../../../tests/helpers/testDb";
import { domainProblem, listDomains } from "../domains/domains";
import { recoverableFault } from "../queue/faults";
import { importTrajectoriesFile } from "../trajectories/importTrajectories";
import type { HealthReport } from "./client";
import { loadRealDomain } from "./load";
import {
  checkRemoteDomain,
  listRemoteDomains,
  RegistrationError,
  registerRemoteDomain,
  remoteSpec,
  removeRemoteDomain,
} from "./registry";
import { RemoteDomain } from "./remoteDomain";

const healthy = async (): Promise<HealthReport> => ({ ok: true, latencyMs: 3, message: "answered" });
const down = async (): Promise<HealthReport> => ({ ok: false, latencyMs: 1, message: "connection refused" });
const input = { name: "tickets", url: "http://127.0.0.1:9", protocol: "agentgym", token: "s3cret-token" };

describeEachDatabase("remote domains", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  describe("remote domain registrations", () => {
    it("keep a checked registration, list it without its token, and hand the token only to requests", async () => {
      const { domain, health } = await registerRemoteDomain(t.db, input, { check: healthy, createdBy: "u1" });
      expect(health.ok).toBe(true);
      expect(domain).toMatchObject({ name: "tickets", hasToken: true, source: "registered" });
      const listed = await listRemoteDomains(t.db);
      expect(JSON.stringify(listed)).not.toContain("s3cret-token");
      expect(listed[0]?.health).toMatchObject({ ok: true, message: "answered" });
      expect((await remoteSpec(t.db, "tickets"))?.token).toBe("s3cret-token");
      expect(await listDomains(t.db)).toContainEqual(
        expect.objectContaining({ name: "tickets", kind: "remote", trainable: true }),
      );
    });

    it("refuse, storing nothing: a bad field named, a built-in name, a taken name, an environment that does not answer", async () => {
      await expect(
        registerRemoteDomain(t.db, { ...input, url: "ftp://x" }, { check: healthy }),
      ).rejects.toThrow(/url: /);
      await expect(
        registerRemoteDomain(t.db, { ...input, protocol: "gopher" }, { check: healthy }),
      ).rejects.toThrow(/protocol/);
      await expect(
        registerRemoteDomain(t.db, { ...input, name: "shop" }, { check: healthy }),
      ).rejects.toThrow(/built-in/);
      await expect(registerRemoteDomain(t.db, input, { check: down })).rejects.toThrow(
        /failed its check: connection refused/,
      );
      expect(await t.db.remoteDomain.count()).toBe(0);
      await registerRemoteDomain(t.db, input, { check: healthy });
      await expect(registerRemoteDomain(t.db, input, { check: healthy })).rejects.toBeInstanceOf(
        RegistrationError,
      );
      // Kept though down, when asked; the check says so again later.
      await registerRemoteDomain(t.db, { ...input, name: "later" }, { check: down, allowUnhealthy: true });
      expect((await checkRemoteDomain(t.db, "later", down)).ok).toBe(false);
      expect((await listRemoteDomains(t.db)).find((d) => d.name === "later")?.health?.ok).toBe(false);
    });

    it("refuse removal while a run uses it", async () => {
      await registerRemoteDomain(t.db, input, { check: healthy });
      const run = await t.db.run.create({
        data: {
          name: "r",
          method: "dreamgym",
          domain: "tickets",
          algorithm: "grpo",
          config: {},
          status: "queued",
        },
      });
      await expect(removeRemoteDomain(t.db, "tickets")).rejects.toThrow(/in use by 1 queued or running run/);
      await t.db.run.update({ where: { id: run.id }, data: { status: "succeeded" } });
      await removeRemoteDomain(t.db, "tickets");
      expect(await remoteSpec(t.db, "tickets")).toBeNull();
    });
  });

  describe("a remote domain's tasks", () => {
    it("are asked of the environment once, kept, and asked again when the registration changes what they are", async () => {
      await registerRemoteDomain(t.db, input, { check: healthy });
      const asked: number[] = [];
      const probe = async (_spec: RemoteEnvSpec, number: number) => {
        asked.push(number);
        const observation: Observation = { text: `Ticket: task ${number}\n...`, actions: ["look", "close"] };
        return { instruction: `task ${number}`, observation };
      };
      const open = (): Environment => {
        throw new Error("no episode in this test");
      };
      const addresses = [
        { split: "train" as const, index: 0 },
        { split: "train" as const, index: 1 },
        { split: "test" as const, index: 0 },
      ];
      const domain = (await loadRealDomain(t.db, "tickets", addresses, { probe, open })) as RemoteDomain;
      expect(domain).toBeInstanceOf(RemoteDomain);
      expect(asked).toEqual([0, 1, 1_000]);
      expect(domain.task("test", 0)).toMatchObject({
        id: "tickets:test:0",
        instruction: "task 1000",
        split: "test",
      });
      expect(await domain.initialState(domain.task("train", 1))).toEqual({
        text: "Ticket: task 1\n...",
        actions: ["look", "close"],
      });
      // A variation starts where its root task starts, and its real environment cannot play it.
      const variation = {
        ...domain.task("train", 1),
        id: "tickets:train:1~abc",
        goal: undefined,
        parentId: "x",
      };
      expect((await domain.initialState(variation)).text).toBe("Ticket: task 1\n...");
      expect(domain.playable(variation)).toBe(false);
      expect(() => domain.task("train", 5)).toThrow(/was not prepared/);

      await loadRealDomain(t.db, "tickets", addresses, { probe, open });
      expect(asked).toHaveLength(3);
      await registerRemoteDomain(
        t.db,
        { ...input, tasks: { train: { first: 0, count: 50 }, test: { first: 500, count: 10 } } },
        { check: healthy, replace: true },
      );
      await loadRealDomain(t.db, "tickets", addresses, { probe, open });
      expect(asked.slice(3)).toEqual([0, 1, 500]);
    });

    it("offer the observation's actions, a free-text slot filled with the instruction, or, for a state that lists none, the actions of the domain's imported logs", async () => {
      await registerRemoteDomain(t.db, input, { check: healthy });
      const probe = async (_spec: RemoteEnvSpec, number: number) => ({
        instruction: `close ticket ${number}`,
        observation: { text: `Ticket: close ticket ${number}` },
      });
      const open = (): Environment => {
        throw new Error("no episode in this test");
      };
      const address = [{ split: "train" as const, index: 0 }];
      let domain = (await loadRealDomain(t.db, "tickets", address, { probe, open })) as RemoteDomain;
      const task = domain.task("train", 0);
      expect(domain.candidateActions(task, { text: "x", actions: ["lookup", "search[...]"] })).toEqual([
        "lookup",
        "search[close ticket 0]",
      ]);
      expect(domain.candidateActions(task, { text: "a page that lists nothing" })).toEqual([]);

      // Logs imported under the domain's name: states like theirs get the actions taken there.
      const lines = Array.from({ length: 6 }, (_, i) =>
        JSON.stringify({
          domain: "tickets",
          instruction: `close ticket ${i}`,
          task_id: `tickets:log-${i}`,
          split: i < 4 ? "train" : "test",
          source: "offline",
          policy: "expert",
          steps: [
            {
              state: `Inbox: ticket ${i} is open`,
              action: `close_ticket[${i}]`,
              next_state: "closed",
              reward: 1,
              done: true,
              success: true,
            },
          ],
        }),
      );
      const file = path.join(t.dir, "tickets.jsonl");
      fs.writeFileSync(file, `${lines.join("\n")}\n`);
      expect((await importTrajectoriesFile(t.db, file, "tickets.jsonl")).imported).toBe(6);
      domain = (await loadRealDomain(t.db, "tickets", address, { probe, open })) as RemoteDomain;
      expect(domain.candidateActions(task, { text: "Inbox: ticket 2 is open" })).toContain("close_ticket[2]");
      // The domain is the remote one; its logs are its offline data.
      expect((await listDomains(t.db)).filter((d) => d.name === "tickets").map((d) => d.kind)).toEqual([
        "remote",
      ]);
    });

    it("bound what a run may ask: the registered task ranges, no expert to clone", () => {
      const spec = RemoteEnvSpec.parse({
        ...input,
        tasks: { train: { first: 0, count: 20 }, test: { first: 20, count: 5 } },
      });
      const ok = parseRunConfig({
        method: "dreamgym-s2r",
        domain: "tickets",
        seedTasks: 20,
        evaluation: { episodes: 5 },
      });
      expect(remoteRunProblem(ok, spec)).toBeNull();
      expect(remoteRunProblem({ ...ok, seedTasks: 21 }, spec)).toMatch(/registers 20 train tasks/);
      expect(remoteRunProblem({ ...ok, evaluation: { ...ok.evaluation, episodes: 6 } }, spec)).toMatch(
        /registers 5 test tasks/,
      );
      expect(remoteRunProblem(parseRunConfig({ method: "bc", domain: "tickets" }), spec)).toMatch(
        /scripted expert/,
      );
    });

    it("are checked when a run is launched", async () => {
      await registerRemoteDomain(t.db, input, { check: healthy });
      const config = parseRunConfig({ method: "dreamgym-s2r", domain: "tickets", seedTasks: 2_000 });
      expect(await domainProblem(t.db, config)).toMatch(/registers 1000 train tasks/);
    });
  });
});

it("a remote environment's faults are not the machine's: the job does not wait them out", () => {
  const down = new EnvironmentDown("tickets", "http://127.0.0.1:9", 300_000, "connect ECONNREFUSED");
  expect(recoverableFault(down)).toBeUndefined();
  expect(recoverableFault(new EpisodeBroken("tickets", "replay diverged"))).toBeUndefined();
  // As it arrives from a thread: a plain object with the name.
  expect(recoverableFault({ name: "EnvironmentDown", message: down.message })).toBeUndefined();
  expect(recoverableFault(new Error("connect ECONNREFUSED 127.0.0.1:5432"))).toBe(
    "the database cannot be reached",
  );
});
