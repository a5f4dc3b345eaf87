import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ENV_KEYS = ["DREAMGYM_CONFIG", "OPENAI_BASE_URL", "OPENAI_API_KEY"] as const;

/**
 * Points the app's config at an OpenAI-protocol endpoint for a test file: a config file with these `openai`
 * settings (DREAMGYM_CONFIG) and OPENAI_BASE_URL, no key. The app reads its config once per test file, so call it
 * before anything reads the config; `restore` puts the environment back and removes the file.
 */
export function useOpenaiConfig(openai: { baseURL: string } & Record<string, unknown>): { restore(): void } {
  const saved = ENV_KEYS.map((key) => [key, process.env[key]] as const);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dreamgym-openai-"));
  const file = path.join(dir, "dreamgym.config.json");
  fs.writeFileSync(file, JSON.stringify({ openai }));
  process.env.DREAMGYM_CONFIG = file;
  process.env.OPENAI_BASE_URL = openai.baseURL;
  delete process.env.OPENAI_API_KEY;
  return {
    restore() {
      fs.rmSync(dir, { recursive: true, force: true });
      for (const [key, value] of saved) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    },
  };
}
