import { REAL_DOMAIN_NAMES } from "@/core/envs/names";
import { RunConfig } from "@/core/train/config";
import { isRl, methodLabelOf } from "@/core/train/methods";
import householdBcQuick from "../../../configs/quick/household-bc.json";
import householdDreamgymGrpoQuick from "../../../configs/quick/household-dreamgym-grpo.json";
import householdDreamgymPpoQuick from "../../../configs/quick/household-dreamgym-ppo.json";
import householdDreamgymS2rGrpoQuick from "../../../configs/quick/household-dreamgym-s2r-grpo.json";
import householdDreamgymS2rPpoQuick from "../../../configs/quick/household-dreamgym-s2r-ppo.json";
import householdRealGrpoQuick from "../../../configs/quick/household-real-grpo.json";
import householdRealPpoQuick from "../../../configs/quick/household-real-ppo.json";
import officeBcQuick from "../../../configs/quick/office-bc.json";
import officeDreamgymGrpoQuick from "../../../configs/quick/office-dreamgym-grpo.json";
import officeDreamgymPpoQuick from "../../../configs/quick/office-dreamgym-ppo.json";
import officeDreamgymS2rGrpoQuick from "../../../configs/quick/office-dreamgym-s2r-grpo.json";
import officeDreamgymS2rPpoQuick from "../../../configs/quick/office-dreamgym-s2r-ppo.json";
import officeRealGrpoQuick from "../../../configs/quick/office-real-grpo.json";
import officeRealPpoQuick from "../../../configs/quick/office-real-ppo.json";
import shopBcQuick from "../../../configs/quick/shop-bc.json";
import shopDreamgymGrpoQuick from "../../../configs/quick/shop-dreamgym-grpo.json";
import shopDreamgymPpoQuick from "../../../configs/quick/shop-dreamgym-ppo.json";
import shopDreamgymS2rGrpoQuick from "../../../configs/quick/shop-dreamgym-s2r-grpo.json";
import shopDreamgymS2rPpoQuick from "../../../configs/quick/shop-dreamgym-s2r-ppo.json";
import shopRealGrpoQuick from "../../../configs/quick/shop-real-grpo.json";
import shopRealPpoQuick from "../../../configs/quick/shop-real-ppo.json";
import householdBc from "../../../configs/table/household-bc.json";
import householdDreamgymGrpo from "../../../configs/table/household-dreamgym-grpo.json";
import householdDreamgymPpo from "../../../configs/table/household-dreamgym-ppo.json";
import householdDreamgymS2rGrpo from "../../../configs/table/household-dreamgym-s2r-grpo.json";
import householdDreamgymS2rPpo from "../../../configs/table/household-dreamgym-s2r-ppo.json";
import householdRealGrpo from "../../../configs/table/household-real-grpo.json";
import householdRealPpo from "../../../configs/table/household-real-ppo.json";
import officeBc from "../../../configs/table/office-bc.json";
import officeDreamgymGrpo from "../../../configs/table/office-dreamgym-grpo.json";
import officeDreamgymPpo from "../../../configs/table/office-dreamgym-ppo.json";
import officeDreamgymS2rGrpo from "../../../configs/table/office-dreamgym-s2r-grpo.json";
import officeDreamgymS2rPpo from "../../../configs/table/office-dreamgym-s2r-ppo.json";
import officeRealGrpo from "../../../configs/table/office-real-grpo.json";
import officeRealPpo from "../../../configs/table/office-real-ppo.json";
import shopBc from "../../../configs/table/shop-bc.json";
import shopDreamgymGrpo from "../../../configs/table/shop-dreamgym-grpo.json";
import shopDreamgymPpo from "../../../configs/table/shop-dreamgym-ppo.json";
import shopDreamgymS2rGrpo from "../../../configs/table/shop-dreamgym-s2r-grpo.json";
import shopDreamgymS2rPpo from "../../../configs/table/shop-dreamgym-s2r-ppo.json";
import shopRealGrpo from "../../../configs/table/shop-real-grpo.json";
import shopRealPpo from "../../../configs/table/shop-real-ppo.json";

/**
 * Launch-form presets: the paper's methods per domain, straight from the files `train --config` reads: the
 * reproduction table's rows (configs/table, the full scale) and their quick smoke forms (configs/quick), plus the
 * untrained policy, which needs no file. Each is parsed with RunConfig, so a
 * broken config file fails here rather than in the form.
 */
const FILES: ReadonlyArray<readonly [string, unknown]> = [
  ["household-bc", householdBc],
  ["household-bc-quick", householdBcQuick],
  ["household-dreamgym-grpo", householdDreamgymGrpo],
  ["household-dreamgym-grpo-quick", householdDreamgymGrpoQuick],
  ["household-dreamgym-ppo", householdDreamgymPpo],
  ["household-dreamgym-ppo-quick", householdDreamgymPpoQuick],
  ["household-dreamgym-s2r-grpo", householdDreamgymS2rGrpo],
  ["household-dreamgym-s2r-grpo-quick", householdDreamgymS2rGrpoQuick],
  ["household-dreamgym-s2r-ppo", householdDreamgymS2rPpo],
  ["household-dreamgym-s2r-ppo-quick", householdDreamgymS2rPpoQuick],
  ["household-real-grpo", householdRealGrpo],
  ["household-real-grpo-quick", householdRealGrpoQuick],
  ["household-real-ppo", householdRealPpo],
  ["household-real-ppo-quick", householdRealPpoQuick],
  ["office-bc", officeBc],
  ["office-bc-quick", officeBcQuick],
  ["office-dreamgym-grpo", officeDreamgymGrpo],
  ["office-dreamgym-grpo-quick", officeDreamgymGrpoQuick],
  ["office-dreamgym-ppo", officeDreamgymPpo],
  ["office-dreamgym-ppo-quick", officeDreamgymPpoQuick],
  ["office-dreamgym-s2r-grpo", officeDreamgymS2rGrpo],
  ["office-dreamgym-s2r-grpo-quick", officeDreamgymS2rGrpoQuick],
  ["office-dreamgym-s2r-ppo", officeDreamgymS2rPpo],
  ["office-dreamgym-s2r-ppo-quick", officeDreamgymS2rPpoQuick],
  ["office-real-grpo", officeRealGrpo],
  ["office-real-grpo-quick", officeRealGrpoQuick],
  ["office-real-ppo", officeRealPpo],
  ["office-real-ppo-quick", officeRealPpoQuick],
  ["shop-bc", shopBc],
  ["shop-bc-quick", shopBcQuick],
  ["shop-dreamgym-grpo", shopDreamgymGrpo],
  ["shop-dreamgym-grpo-quick", shopDreamgymGrpoQuick],
  ["shop-dreamgym-ppo", shopDreamgymPpo],
  ["shop-dreamgym-ppo-quick", shopDreamgymPpoQuick],
  ["shop-dreamgym-s2r-grpo", shopDreamgymS2rGrpo],
  ["shop-dreamgym-s2r-grpo-quick", shopDreamgymS2rGrpoQuick],
  ["shop-dreamgym-s2r-ppo", shopDreamgymS2rPpo],
  ["shop-dreamgym-s2r-ppo-quick", shopDreamgymS2rPpoQuick],
  ["shop-real-grpo", shopRealGrpo],
  ["shop-real-grpo-quick", shopRealGrpoQuick],
  ["shop-real-ppo", shopRealPpo],
  ["shop-real-ppo-quick", shopRealPpoQuick],
];

export interface Preset {
  /** The config file's name without .json (or untrained-<domain>). */
  id: string;
  label: string;
  domain: RunConfig["domain"];
  quick: boolean;
  config: RunConfig;
}

function presetLabel(config: RunConfig, quick: boolean): string {
  const rl = isRl(config.method) ? ` · ${config.algorithm.toUpperCase()}` : "";
  return `${methodLabelOf(config.method)}${rl}${quick ? " (quick)" : ""}`;
}

const UNTRAINED: ReadonlyArray<readonly [string, unknown]> = REAL_DOMAIN_NAMES.map(
  (domain) =>
    [
      `untrained-${domain}`,
      { name: `${domain} untrained`, method: "untrained", domain, evaluation: { episodes: 100 } },
    ] as const,
);

export const PRESETS: readonly Preset[] = [...FILES, ...UNTRAINED].map(([id, raw]) => {
  const config = RunConfig.parse(raw);
  const quick = id.endsWith("-quick");
  return { id, label: presetLabel(config, quick), domain: config.domain, quick, config };
});

export const DEFAULT_PRESET_ID = "shop-dreamgym-grpo-quick";

export function presetById(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
